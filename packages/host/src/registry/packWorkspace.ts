import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Logger } from 'pino';
import { openRegistryFolder, type RegistryFolder } from './registryFolder.js';

const run = promisify(execFile);

/**
 * The workspace folders whose packages a partner project installs, in build order. `harness`
 * joins when its folder exists.
 */
export const WORKSPACE_PACKAGES = ['integration-schema', 'wire', 'sdk', 'ui', 'cli', 'harness'] as const;

/**
 * The monorepo root when this package runs from a checkout (`packages/host/{src,dist}/registry`),
 * undefined when it was installed from a registry.
 */
export function workspaceRoot(): string | undefined {
  const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
  if (basename(resolve(packageRoot, '..')) !== 'packages') return undefined;
  const root = resolve(packageRoot, '../..');
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: unknown };
    return Array.isArray(manifest.workspaces) ? root : undefined;
  } catch {
    return undefined;
  }
}

/** A package of the workspace: its folder (relative to the root), name and version. */
export interface WorkspacePackage {
  readonly folder: string;
  readonly name: string;
  readonly version: string;
}

/** The {@link WORKSPACE_PACKAGES} present under `root`, with their current names and versions. */
export function workspacePackages(root: string): WorkspacePackage[] {
  return WORKSPACE_PACKAGES.map((name) => `packages/${name}`)
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      return { folder, name: manifest.name, version: manifest.version };
    });
}

export interface PackResult {
  /** Every workspace package, at its current version. */
  readonly packages: readonly WorkspacePackage[];
  /** Those packed now (the folder lacked their version). */
  readonly packed: readonly WorkspacePackage[];
  /** Build + pack, when something was packed. */
  readonly ms: number;
}

export interface PackOptions {
  /** The monorepo (default {@link workspaceRoot}). */
  readonly root: string;
  /** Told before the (slow) build and pack start. */
  readonly onStart?: (missing: readonly WorkspacePackage[]) => void;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Makes `dir` hold the current version of every workspace package: those missing are built
 * (`tsc -b`, incremental) and packed with `npm pack`, through a temporary folder so a tarball
 * appears whole. A version already there is kept as it is: published versions do not change (delete
 * its tarball to pack it again).
 * @example await packWorkspace('.platform-host/registry', { root: workspaceRoot()! });
 */
export async function packWorkspace(dir: string, options: PackOptions): Promise<PackResult> {
  const packages = workspacePackages(options.root);
  const present = await openRegistryFolder(dir).packages();
  const missing = packages.filter((pkg) => !present.get(pkg.name)?.has(pkg.version));
  if (missing.length === 0) return { packages, packed: [], ms: 0 };
  options.onStart?.(missing);
  const started = performance.now();
  const env = options.env ?? process.env;
  // Each package's dist is built against the ones before it: build them all (a no-op when current).
  await run(
    process.execPath,
    [
      join(options.root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-b',
      ...packages.map((pkg) => pkg.folder),
    ],
    { cwd: options.root, env, maxBuffer: 16 * 1024 * 1024 },
  );
  await mkdir(dir, { recursive: true });
  const staging = await mkdtemp(join(dir, '.packing-'));
  try {
    const [command, prefix] = npmCommand(env);
    await run(
      command,
      [
        ...prefix,
        'pack',
        '--json',
        '--pack-destination',
        staging,
        '--ignore-scripts',
        ...missing.flatMap((pkg) => ['-w', pkg.folder]),
      ],
      { cwd: options.root, env, maxBuffer: 16 * 1024 * 1024 },
    );
    for (const file of await readdir(staging)) {
      if (file.endsWith('.tgz')) await rename(join(staging, file), join(dir, file));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { packages, packed: missing, ms: Math.round(performance.now() - started) };
}

// npm itself: the one running us (`npm start`) when known, else the one on PATH.
function npmCommand(env: NodeJS.ProcessEnv): [string, string[]] {
  const cli = env.npm_execpath;
  if (cli !== undefined && /npm-cli\.c?js$/.test(cli) && existsSync(cli)) return [process.execPath, [cli]];
  return [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
}

export interface PackOnDemandOptions {
  readonly root: string;
  readonly log: (message: string, error?: unknown) => void;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * `serve` from a checkout: the first registry request for a workspace package packs every
 * workspace package whose current version the folder lacks (one at a time; a failure is logged
 * and retried by the next request). Nothing is packed before a request asks: a host that serves
 * no install pays nothing.
 * @example packOnDemand(host.services.registry, { root, log: (line) => logger.info(line) });
 */
export function packOnDemand(folder: RegistryFolder, options: PackOnDemandOptions): void {
  const dir = folder.dir;
  if (dir === undefined) return;
  const names = new Set(workspacePackages(options.root).map((pkg) => pkg.name));
  let done = false;
  let running: Promise<void> | undefined;
  folder.setPrepare(async (name) => {
    if (done || !names.has(name)) return;
    running ??= (async () => {
      try {
        const result = await packWorkspace(dir, {
          root: options.root,
          ...(options.env === undefined ? {} : { env: options.env }),
          onStart: (missing) =>
            options.log(
              `registry: packing ${missing.map((pkg) => `${pkg.name}@${pkg.version}`).join(', ')} from this checkout into ${dir} (builds dist first)`,
            ),
        });
        if (result.packed.length > 0) {
          options.log(
            `registry: packed ${result.packed.length} packages in ${(result.ms / 1000).toFixed(1)} s`,
          );
        }
        done = true;
      } catch (error) {
        options.log(`registry: packing the workspace packages failed; the next request tries again`, error);
      } finally {
        running = undefined;
      }
    })();
    await running;
  });
}

/**
 * What `serve` calls: when it runs from a checkout and serves the default folder
 * (`<dataDir>/registry`, not an operator's `PLATFORM_REGISTRY_DIR`), packs on demand. Returns
 * whether it will.
 */
export function packCheckoutOnDemand(
  folder: RegistryFolder | undefined,
  dataDir: string,
  logger: Pick<Logger, 'info' | 'error'>,
): boolean {
  const root = workspaceRoot();
  if (root === undefined || folder === undefined || folder.dir !== resolve(dataDir, 'registry')) return false;
  packOnDemand(folder, {
    root,
    log: (line, error) => (error === undefined ? logger.info(line) : logger.error({ err: error }, line)),
  });
  return true;
}
