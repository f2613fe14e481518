import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

/**
 * Builds the packages the CLI's tests run or pack (`tsc -b` is incremental: a no-op when `dist`
 * is current, so `npm test` works on a fresh clone and stays cheap after `npm run build`).
 */
export default function setup(): void {
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-b',
      'packages/integration-schema',
      'packages/sdk',
      'packages/ui',
      'packages/cli',
    ],
    { cwd: root, stdio: 'inherit' },
  );
}
