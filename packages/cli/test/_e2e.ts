// The end-to-end tests' setup: the workspace packages packed as tarballs, a project made by
// `platform init` outside this repo and pointed at them, installed from the npm registry.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanEnv, REPO_ROOT, run } from './_helpers.js';

/**
 * A line the test run must show (why something is skipped or left out). Written to stderr
 * directly: vitest.setup.ts fails a test on console output, and this is deliberate output, not
 * console noise.
 */
export function note(message: string): void {
  process.stderr.write(`[e2e] ${message}\n`);
}

/** The packages a scaffold depends on that do not exist yet, removed before install. */
export const NOT_YET_PUBLISHED = {
  '@platform/harness':
    'no @platform/harness package exists yet (a later issue builds it); validate and test never import harness.config.ts, and the typecheck leaves that file out',
} as const;

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
  const output = execFileSync(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      destination,
      ...['integration-schema', 'sdk', 'ui', 'cli'].flatMap((name) => ['-w', `packages/${name}`]),
    ],
    { cwd: REPO_ROOT, encoding: 'utf8', env: installEnv(), stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const packed = JSON.parse(output) as { name: string; filename: string }[];
  return Object.fromEntries(packed.map((item) => [item.name, join(destination, item.filename)]));
}

/**
 * Scaffolds `<parent>/app` with the repo's built CLI and points its `@platform/*` dependencies at
 * the tarballs: package.json ranges become `file:` specs, the sdk's own dependency on
 * integration-schema is overridden the way each package manager reads overrides, and packages
 * that do not exist yet are removed (with a note saying why).
 */
export async function scaffoldAgainstTarballs(
  parent: string,
  tarballs: Record<string, string>,
  manager: 'npm' | 'pnpm',
): Promise<string> {
  const created = await run(['init', 'app', '--docs', 'docs/setup.md', '--json'], { cwd: parent });
  if (created.code !== 0) throw new Error(`platform init failed:\n${created.stdout}${created.stderr}`);
  const app = join(parent, 'app');
  const path = join(app, 'package.json');
  const pkg = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, string>>;
  for (const section of ['dependencies', 'devDependencies'] as const) {
    for (const name of Object.keys(pkg[section] ?? {})) {
      if (name in NOT_YET_PUBLISHED) {
        delete pkg[section]![name];
        note(
          `${name} removed from the ${manager} e2e project before install: ${NOT_YET_PUBLISHED[name as keyof typeof NOT_YET_PUBLISHED]}.`,
        );
      } else if (tarballs[name] !== undefined) {
        pkg[section]![name] = `file:${tarballs[name]}`;
      }
    }
  }
  // Every packed workspace package is pinned for transitive resolution too (@platform/ui depends
  // on @platform/sdk, the sdk on the schema): none of them is in the registry.
  const pinned = Object.fromEntries(Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`]));
  if (manager === 'npm') {
    pkg.overrides = { ...pkg.overrides, ...pinned };
  } else {
    const workspace = join(app, 'pnpm-workspace.yaml');
    const lines = Object.entries(pinned).map(([name, spec]) => `  '${name}': ${spec}\n`);
    writeFileSync(workspace, `${readFileSync(workspace, 'utf8')}${lines.join('')}`);
  }
  writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
  return app;
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
