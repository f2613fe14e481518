import { lstat, mkdir, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckLog } from './_checkLog.js';

/** The host's own TypeScript and Vitest (exact-pinned dependencies of `@platform/host`): what the gate runs. */
export interface HostToolchain {
  readonly typescript: { readonly dir: string; readonly version: string; readonly tsc: string };
  readonly vitest: {
    readonly dir: string;
    readonly version: string;
    readonly cli: string;
    readonly reporters: string;
  };
  /**
   * Every `node_modules` folder the two tools resolve their dependencies from (each ancestor of
   * theirs): what a sandbox with a private /tmp must still show, read-only, at the same paths.
   */
  readonly moduleRoots: readonly string[];
}

function moduleRootsOf(dirs: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const dir of dirs) {
    const parts = dir.split(sep);
    for (let at = parts.length - 1; at > 0; at--)
      if (parts[at] === 'node_modules') roots.add(parts.slice(0, at + 1).join(sep));
  }
  return [...roots];
}

let toolchain: Promise<HostToolchain> | undefined;

/** Where the host's typescript and vitest are installed, found once per process. */
export function hostToolchain(): Promise<HostToolchain> {
  toolchain ??= (async () => {
    const require = createRequire(import.meta.url);
    const typescript = await realpath(dirname(require.resolve('typescript/package.json')));
    const vitest = await realpath(dirname(require.resolve('vitest/package.json')));
    const version = async (dir: string) =>
      (JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    return {
      typescript: {
        dir: typescript,
        version: await version(typescript),
        tsc: join(typescript, 'bin', 'tsc'),
      },
      vitest: {
        dir: vitest,
        version: await version(vitest),
        cli: join(vitest, 'vitest.mjs'),
        reporters: join(vitest, 'dist', 'reporters.js'),
      },
      moduleRoots: moduleRootsOf([typescript, vitest]),
    };
  })();
  return toolchain;
}

// The partner's copies of the toolchain that `npm ci` may have installed, and the bin links to them.
const SHADOWED = ['typescript', 'vitest'] as const;
const BIN_LINKS = {
  tsc: 'typescript/bin/tsc',
  tsserver: 'typescript/bin/tsserver',
  vitest: 'vitest/vitest.mjs',
};

/**
 * Before any partner code runs: whatever the project installed as `typescript` or `vitest` (and the
 * `.bin` links `tsc`, `tsserver`, `vitest`) is removed and replaced by a link to the host's copy,
 * so a test's `import 'vitest'` reaches the runner the host started and nothing of the partner's
 * runs as either tool. The gate itself never runs anything through these links.
 */
export async function shadowPartnerToolchain(projectDir: string, log: CheckLog): Promise<void> {
  const tools = await hostToolchain();
  const modules = join(projectDir, 'node_modules');
  await mkdir(join(modules, '.bin'), { recursive: true });
  for (const name of SHADOWED) {
    const target = join(modules, name);
    const theirs = await installedVersion(target);
    await rm(target, { recursive: true, force: true });
    await symlink(tools[name].dir, target, 'dir');
    log.line(
      theirs === undefined
        ? `${name}: the host's ${tools[name].version}`
        : `${name}: the project's ${theirs} is replaced by the host's ${tools[name].version}`,
    );
  }
  for (const [bin, target] of Object.entries(BIN_LINKS)) {
    const link = join(modules, '.bin', bin);
    await rm(link, { recursive: true, force: true });
    await symlink(join('..', target), link);
  }
}

// Read before any partner code has run (npm ci put it there, possibly as a link into the project).
async function installedVersion(dir: string): Promise<string | undefined> {
  try {
    await lstat(dir);
  } catch {
    return undefined;
  }
  try {
    const { version } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof version === 'string' ? version : 'copy (no version)';
  } catch {
    return 'copy (no package.json)';
  }
}

/**
 * The vitest reporter the gate passes (`--reporter=<file>`): vitest's own JSON reporter, its report
 * written to file descriptor 3, a pipe the host holds, never to a file partner code could plant.
 */
export async function fdReporterSource(): Promise<string> {
  const { vitest } = await hostToolchain();
  return `// Written by the Platform gate: vitest's JSON report, onto the host's pipe (fd 3).
import { writeSync, closeSync } from 'node:fs';
import { JsonReporter } from ${JSON.stringify(pathToFileURL(vitest.reporters).href)};

export default class PlatformGateReporter extends JsonReporter {
  async writeReport(report) {
    const bytes = Buffer.from(report);
    for (let at = 0; at < bytes.length; ) at += writeSync(3, bytes, at);
    closeSync(3);
  }
}
`;
}
