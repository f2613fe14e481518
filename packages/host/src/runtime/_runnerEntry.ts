// Owns where the runner process's entry is: the compiled `dist/runner/runner.mjs` in the published
// package, or, when the host runs from source (tests, `npm start`), one file esbuild bundles from
// `src/runner/runner.mts` once per host process into a folder of its own under the temp dir.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const SOURCE_ENTRY = fileURLToPath(new URL('../runner/runner.mts', import.meta.url));

/**
 * The folder of the runner process, the only one of the host's it may read (see runnerExecArgv):
 * `dist/runner/` of the package, or from source a folder named after the user and the source's
 * path, so that two checkouts never share one (and `ownRunnerDir` refuses one another user made).
 */
export const RUNNER_DIR = FROM_SOURCE
  ? `${join(tmpdir(), `platform-runner-${process.getuid?.() ?? 'user'}-${createHash('sha256').update(SOURCE_ENTRY).digest('hex').slice(0, 16)}`)}/`
  : fileURLToPath(new URL('../runner/', import.meta.url));

let bundled = false;

/**
 * Makes the source-mode runner folder (0700) or checks the one there: a folder of this user that
 * no one else may write. The temp dir is shared; another user's folder, or a link planted under
 * this name, would hand the runner file (code the host forks) to someone else.
 */
function ownRunnerDir(): void {
  try {
    mkdirSync(RUNNER_DIR, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(RUNNER_DIR);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) {
    throw new Error(
      `${RUNNER_DIR} is not a folder of this user that only this user may write; remove it, and the host makes its own`,
    );
  }
}

/**
 * The runner's entry file, bundled first when running from source (~0.1 s, once per process; a
 * forked child then loads one plain JavaScript file, no TypeScript loader).
 * @example fork(runnerEntry(), [isolatedVm.main], { execArgv: runnerExecArgv() });
 */
export function runnerEntry(): string {
  const entry = `${RUNNER_DIR}runner.mjs`;
  if (!FROM_SOURCE || bundled) return entry;
  const result = buildSync({
    entryPoints: [SOURCE_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const text = result.outputFiles[0]?.text;
  if (text === undefined) throw new Error('esbuild produced no runner bundle');
  // Written only when it changed, through a rename: host processes of one checkout share the file.
  ownRunnerDir();
  if (!existsSync(entry) || readFileSync(entry, 'utf8') !== text) {
    const partial = `${entry}.${process.pid}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, entry);
  }
  bundled = true;
  return entry;
}
