import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** One isolated-vm line: its version and the package name it is installed under. */
export interface IsolatedVmLine {
  /** The dependency name in `@platform/host`'s package.json (the last two are npm aliases). */
  readonly packageName: 'isolated-vm' | 'isolated-vm-node22' | 'isolated-vm-node24';
  readonly version: string;
}

/**
 * The isolated-vm line for a Node version: 5.0.4 is the last that builds on Node 20; 6.x needs
 * Node 22, 7.x Node 24. All three are optional dependencies of `@platform/host`: npm skips 6.x and
 * 7.x where their `engines` do not match, and tries 5.0.4 everywhere (it builds from source; 6.x and
 * 7.x load prebuilt binaries).
 * @example isolatedVmLineFor('22.11.0') // { packageName: 'isolated-vm-node22', version: '6.2.0', ... }
 */
export function isolatedVmLineFor(nodeVersion: string): IsolatedVmLine {
  const major = Number(nodeVersion.replace(/^v/, '').split('.')[0]);
  if (!Number.isInteger(major) || major < 20) {
    throw new Error(
      `the isolated runtime needs Node 20 or later (this is Node ${nodeVersion}); upgrade Node, or set PLATFORM_RUNTIME=in-process for local development`,
    );
  }
  if (major < 22) return { packageName: 'isolated-vm', version: '5.0.4' };
  if (major < 24) return { packageName: 'isolated-vm-node22', version: '6.2.0' };
  return { packageName: 'isolated-vm-node24', version: '7.0.1' };
}

/** Where the runner loads isolated-vm from, and the folders it must be allowed to read for that. */
export interface ResolvedIsolatedVm extends IsolatedVmLine {
  /** The package's main file, handed to the runner. */
  readonly main: string;
  /** The package folder and those of its runtime dependencies (node-gyp-build for 6.x and 7.x). */
  readonly readDirs: readonly string[];
}

const require = createRequire(import.meta.url);

/**
 * Resolves the isolated-vm line of the running Node, or says how to install it.
 * @example const { main, readDirs } = resolveIsolatedVm();
 */
export function resolveIsolatedVm(
  nodeVersion: string = process.versions.node,
  resolve: (request: string) => string = require.resolve,
): ResolvedIsolatedVm {
  const line = isolatedVmLineFor(nodeVersion);
  let main: string;
  let manifestPath: string;
  try {
    manifestPath = resolve(`${line.packageName}/package.json`);
    main = resolve(line.packageName);
  } catch {
    throw new Error(
      `the isolated runtime needs isolated-vm ${line.version} on Node ${nodeVersion} (npm package "${line.packageName}", an optional dependency of @platform/host), and it is not installed: run npm install again with this Node (5.0.4 for Node 20 builds from source: it needs python3, make and g++), or set PLATFORM_RUNTIME=in-process for local development`,
    );
  }
  const packageDir = dirname(manifestPath);
  const readDirs = [packageDir];
  const { dependencies = {} } = require(manifestPath) as { dependencies?: Record<string, string> };
  const fromPackage = createRequire(manifestPath);
  for (const name of Object.keys(dependencies)) {
    readDirs.push(dirname(fromPackage.resolve(`${name}/package.json`)));
  }
  return { ...line, main, readDirs };
}
