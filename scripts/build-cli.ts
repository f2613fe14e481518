import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * Builds the CLI and the packages its tests and benchmarks run or pack. `tsc -b` is incremental:
 * a no-op when `dist` is current, so callers run it unconditionally.
 */
export function buildCli(): void {
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-b',
      ...['integration-schema', 'wire', 'sdk', 'ui', 'harness', 'cli'].map((name) => `packages/${name}`),
    ],
    { cwd: root, stdio: 'inherit' },
  );
}
