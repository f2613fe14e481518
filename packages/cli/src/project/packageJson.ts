import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The parts of a package.json the CLI reads and writes; everything else is kept as it is. */
export interface PackageJson {
  readonly name?: string;
  readonly version?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly overrides?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/** The package.json in `dir`, or `undefined` when there is none or it is not a JSON object. */
export function readPackageJson(dir: string): PackageJson | undefined {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return undefined;
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as PackageJson)
      : undefined;
  } catch {
    return undefined;
  }
}

/** An installed package: its real directory and version. */
export interface InstalledPackage {
  readonly dir: string;
  readonly version: string;
}

/**
 * The package `name` as Node would find it from `fromDir` (nearest `node_modules`, walking up),
 * through symlinks (pnpm), without importing it and whatever its `exports` allow.
 */
export function findInstalledPackage(fromDir: string, name: string): InstalledPackage | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) {
      const version = readPackageJson(dirname(candidate))?.version;
      if (typeof version === 'string') return { dir: realpathSync(dirname(candidate)), version };
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The package managers a project made by `platform init` works with. */
export type PackageManager = 'npm' | 'pnpm';

/** The project's package manager: its lockfile, else the one running us (`npm_config_user_agent`), else npm. */
export function detectPackageManager(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
): PackageManager {
  if (existsSync(join(dir, 'pnpm-lock.yaml'))) return 'pnpm';
  if (existsSync(join(dir, 'package-lock.json'))) return 'npm';
  return env.npm_config_user_agent?.startsWith('pnpm/') === true ? 'pnpm' : 'npm';
}

/** How to run a package's binary once with a package manager (`npx`, `pnpm dlx`). */
export function oneOffCommand(manager: PackageManager): string {
  return manager === 'pnpm' ? 'pnpm dlx' : 'npx';
}
