// The end-to-end tests' setup: the workspace packages packed as tarballs and served by the host's
// registry routes, a project made by `platform init --host` outside this repo, installed:
// `@platform/*` from that registry, everything else from the npm registry.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { serve as serveNode } from '@hono/node-server';
import { openRegistryFolder, registryRoutes } from '@platform/host';
import { cleanEnv, REPO_ROOT, type Run, run } from './_helpers.js';

/**
 * A line the test run must show (why something is skipped or left out). Written to stderr
 * directly: vitest.setup.ts fails a test on console output, and this is deliberate output, not
 * console noise.
 */
export function note(message: string): void {
  process.stderr.write(`[e2e] ${message}\n`);
}

/** Whether the npm registry answers, and which one: the e2e tests need it for third-party packages. */
export async function registryStatus(): Promise<{ reachable: boolean; registry: string; reason: string }> {
  let registry = 'https://registry.npmjs.org/';
  try {
    registry = execFileSync('npm', ['config', 'get', 'registry'], {
      encoding: 'utf8',
      env: installEnv(),
    }).trim();
    const response = await fetch(new URL('zod', registry.endsWith('/') ? registry : `${registry}/`), {
      signal: AbortSignal.timeout(10_000),
      headers: { accept: 'application/vnd.npm.install-v1+json' },
    });
    if (response.ok) return { reachable: true, registry, reason: '' };
    return { reachable: false, registry, reason: `the npm registry ${registry} answered ${response.status}` };
  } catch (error) {
    return {
      reachable: false,
      registry,
      reason: `the npm registry ${registry} is unreachable (${(error as Error).message})`,
    };
  }
}

/** The environment for a package manager: ours minus the test runner's, keeping npm's own settings. */
export function installEnv(): Record<string, string> {
  const keep = ['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig'];
  const env = cleanEnv();
  for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  return env;
}

/** `npm pack` of the workspace packages a scaffold installs; name -> tarball path. */
export function packWorkspacePackages(destination: string): Record<string, string> {
  mkdirSync(destination, { recursive: true });
  const output = execFileSync(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      destination,
      ...['integration-schema', 'wire', 'sdk', 'ui', 'harness', 'cli'].flatMap((name) => [
        '-w',
        `packages/${name}`,
      ]),
    ],
    { cwd: REPO_ROOT, encoding: 'utf8', env: installEnv(), stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const packed = JSON.parse(output) as { name: string; filename: string }[];
  return Object.fromEntries(packed.map((item) => [item.name, join(destination, item.filename)]));
}

/**
 * The packed tarballs served over HTTP the way the host serves them (`/registry/`, the host's own
 * registry routes), in this process: no database, no runtime.
 */
export async function startRegistry(folder: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = registryRoutes({ folder: openRegistryFolder(folder) });
  const server = await new Promise<Server>((resolveListen) => {
    const listening = serveNode({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolveListen(listening as Server),
    ) as Server;
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/** Scaffolds `<parent>/app` with the repo's built CLI, `--host` pointing `@platform/*` at the registry of `host`. */
export async function scaffoldAgainstRegistry(parent: string, host: string): Promise<string> {
  const created = await run(['init', 'app', '--docs', 'docs/setup.md', '--host', host, '--json'], {
    cwd: parent,
  });
  if (created.code !== 0) throw new Error(`platform init failed:\n${created.stdout}${created.stderr}`);
  return join(parent, 'app');
}

/**
 * The `@platform/*` packages a lockfile records, with their integrity and (npm) resolved URL.
 * pnpm records no tarball URL for a registry package: its integrity says where it came from.
 */
export function platformLockEntries(
  app: string,
  manager: 'npm' | 'pnpm',
): { name: string; version: string; integrity: string; resolved: string | undefined }[] {
  if (manager === 'npm') {
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string; integrity?: string; link?: boolean }>;
    };
    return Object.entries(lock.packages)
      .filter(([path]) => /(^|\/)node_modules\/@platform\/[^/]+$/.test(path))
      .map(([path, entry]) => ({
        name: path.slice(path.lastIndexOf('@platform/')),
        version: entry.version ?? '',
        integrity: entry.integrity ?? '',
        resolved: entry.resolved,
      }));
  }
  // pnpm-lock.yaml v9: `packages:` entries "  '@platform/sdk@0.5.0':" then "    resolution: {integrity: ...}".
  const text = readFileSync(join(app, 'pnpm-lock.yaml'), 'utf8');
  const packages = text.slice(text.indexOf('\npackages:\n'), text.indexOf('\nsnapshots:\n'));
  return [...packages.matchAll(/^ {2}'?(@platform\/[^@']+)@([^':]+)'?:\n {4}resolution: \{([^}]*)\}/gm)].map(
    (match) => ({
      name: match[1]!,
      version: match[2]!,
      integrity: /integrity: ([^,\s}]+)/.exec(match[3]!)?.[1] ?? '',
      resolved: /tarball: ([^,\s}]+)/.exec(match[3]!)?.[1],
    }),
  );
}

/** `sha512-...` of a file, as lockfiles record it. */
export function integrityOf(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** The project's installed `platform` binary (node_modules/.bin), runnable with this Node on PATH. */
export function installedPlatform(app: string): { command: string; env: Record<string, string> } {
  const env = cleanEnv();
  env.PATH = `${dirname(process.execPath)}:${env.PATH ?? ''}`;
  return { command: join(app, 'node_modules', '.bin', 'platform'), env };
}

/** How each package manager installs the scaffold: fresh node_modules, caches reused. */
export const INSTALL = {
  npm: {
    command: 'npm',
    args: ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
  },
  pnpm: {
    command: process.execPath,
    args: [
      join(REPO_ROOT, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs'),
      'install',
      '--prefer-offline',
      '--no-frozen-lockfile',
    ],
  },
} as const;

/**
 * Installs a scaffold's dependencies with `manager` (`extraArgs` after its own). `--prefer-offline`
 * trusts a cached package document without asking the registry: when a package just published
 * pins a sibling at its new version (`@tanstack/react-query` -> `@tanstack/query-core`), a cached
 * document of the sibling that predates it fails the install ("No matching version"). That install
 * is retried once asking the registry (`--prefer-online`), with a line saying so.
 */
export async function installScaffold(
  app: string,
  manager: keyof typeof INSTALL,
  extraArgs: readonly string[] = [],
): Promise<Run> {
  const install = (args: readonly string[]) =>
    run([...args, ...extraArgs], {
      cwd: app,
      command: INSTALL[manager].command,
      env: installEnv(),
      timeoutMs: 600_000,
    });
  const first = await install(INSTALL[manager].args);
  if (
    first.code === 0 ||
    !/ETARGET|ERR_PNPM_NO_MATCHING_VERSION|No matching version/.test(first.stdout + first.stderr)
  )
    return first;
  console.warn(
    `${manager} install found no matching version in its cached package documents; installing again with --prefer-online`,
  );
  return install(INSTALL[manager].args.map((arg) => (arg === '--prefer-offline' ? '--prefer-online' : arg)));
}

/** `npm install` in a scaffold (`@platform/*` from the registry its .npmrc names, the rest from npm); throws with npm's output on failure. */
export async function npmInstall(app: string): Promise<void> {
  const install = await installScaffold(app, 'npm');
  if (install.code !== 0) throw new Error(`npm install failed:\n${install.stdout}${install.stderr}`);
}
