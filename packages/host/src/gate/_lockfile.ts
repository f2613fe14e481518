import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { finding } from './_finding.js';
import type { Finding } from './GateResult.js';

interface LockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
}

/** An `@platform/*` version the lockfile pins, with the integrity it expects. */
export interface PlatformPin {
  readonly name: string;
  readonly version: string;
  readonly integrity: string | undefined;
}

/** A finding of `install` about package-lock.json. */
export const lockfileFinding = (message: string, code: string, hint: string): Finding =>
  finding('install', code, message, { file: 'package-lock.json', hint });

export const RELOCK_HINT =
  'Run `npm install` in the project with `@platform:registry` pointing at this host (as `platform init --host` sets up), and publish again.';

// Registries whose tarball URLs mean "the npm registry": npm itself swaps their host for the configured one.
const PUBLIC_REGISTRIES = ['https://registry.npmjs.org/', 'https://registry.yarnpkg.com/'];

/**
 * Reads the project's package-lock.json and makes it install only from where the gate allows:
 * `@platform/*` from the host's registry (their `resolved` URLs rewritten to it, whatever host the
 * project was locked against), everything else from the npm registry or from files inside the
 * project. Writes the rewritten lockfile back; returns the `@platform/*` pins to check, or findings.
 */
export async function pinLockfile(
  projectDir: string,
  registries: { platform: string; npm: string },
): Promise<{ findings: Finding[]; pins: PlatformPin[] }> {
  const path = join(projectDir, 'package-lock.json');
  let lock: { lockfileVersion?: unknown; packages?: Record<string, LockEntry> };
  try {
    lock = JSON.parse(await readFile(path, 'utf8')) as typeof lock;
  } catch (error) {
    const message = `package-lock.json is not valid JSON (${(error as Error).message})`;
    return { findings: [lockfileFinding(message, 'install.lockfile', RELOCK_HINT)], pins: [] };
  }
  if (
    typeof lock.lockfileVersion !== 'number' ||
    lock.lockfileVersion < 2 ||
    typeof lock.packages !== 'object'
  ) {
    const message = `package-lock.json is lockfileVersion ${String(lock.lockfileVersion)}; the gate reads version 2 or 3`;
    const hint = 'Run `npm install` with npm 7 or newer to rewrite package-lock.json, and publish again.';
    return { findings: [lockfileFinding(message, 'install.lockfile', hint)], pins: [] };
  }
  const findings: Finding[] = [];
  const pins = new Map<string, PlatformPin>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    const problem = checkEntry(projectDir, key, entry, registries);
    if (problem !== undefined) {
      findings.push(problem);
      continue;
    }
    const name = entry.name ?? /(?:^|\/)node_modules\/(@platform\/[^/]+)$/.exec(key)?.[1];
    if (entry.link === true || name?.startsWith('@platform/') !== true || entry.version === undefined)
      continue;
    const short = name.slice('@platform/'.length);
    if (entry.resolved !== undefined)
      entry.resolved = `${registries.platform}${name}/-/${short}-${entry.version}.tgz`;
    pins.set(`${name}@${entry.version} ${entry.integrity}`, {
      name,
      version: entry.version,
      integrity: entry.integrity,
    });
  }
  if (findings.length === 0) await writeFile(path, `${JSON.stringify(lock, null, 2)}\n`);
  return { findings, pins: [...pins.values()] };
}

function checkEntry(
  projectDir: string,
  key: string,
  entry: LockEntry,
  registries: { platform: string; npm: string },
): Finding | undefined {
  const installedAs = /(?:^|\/)node_modules\/(@platform\/[^/]+)$/.exec(key)?.[1];
  if (installedAs !== undefined && entry.name !== undefined && !entry.name.startsWith('@platform/')) {
    return lockfileFinding(
      `package-lock.json installs ${entry.name}@${entry.version ?? '?'} under the name ${installedAs}`,
      'install.platform-alias',
      `Depend on ${installedAs} itself (from the host's registry), run \`npm install\`, and publish again.`,
    );
  }
  // Local dependencies (workspaces, links, `file:` tarballs) come from inside the project, never a host folder.
  const resolved = entry.resolved;
  const local = resolved?.startsWith('file:')
    ? resolved.slice('file:'.length)
    : entry.link === true
      ? resolved
      : undefined;
  const outside = [!key.includes('node_modules/') ? key : undefined, local].find(
    (path) => path !== undefined && path !== '' && leaves(projectDir, path),
  );
  if (outside !== undefined) {
    return lockfileFinding(
      `package-lock.json installs ${key || 'the project'} from ${outside}, outside the project folder`,
      'install.outside-project',
      'Keep local dependencies and workspaces inside the project folder (or publish them to a registry), run `npm install`, and publish again.',
    );
  }
  if (resolved === undefined || local !== undefined || (entry.name ?? installedAs)?.startsWith('@platform/'))
    return undefined;
  if (resolved.startsWith(registries.npm)) return undefined;
  const publicRegistry = PUBLIC_REGISTRIES.find((registry) => resolved.startsWith(registry));
  if (publicRegistry !== undefined) {
    entry.resolved = `${registries.npm}${resolved.slice(publicRegistry.length)}`;
    return undefined;
  }
  // Anything else (a git repository, a tarball on some server) would make the host fetch it.
  return lockfileFinding(
    `package-lock.json installs ${key} from ${resolved}; the gate installs from the npm registry, the host's registry and files inside the project`,
    'install.unsupported-source',
    'Depend on a version published to the npm registry (or vendor the package as a file: tarball inside the project), run `npm install`, and publish again.',
  );
}

function leaves(projectDir: string, path: string): boolean {
  const local = relative(projectDir, resolve(projectDir, path));
  return local === '..' || local.startsWith(`..${sep}`) || isAbsolute(local);
}
