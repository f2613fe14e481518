import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateProject } from './validateProject.js';

const root = join(import.meta.dirname, '..', '..', '..', '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('validateProject (in process)', () => {
  it('reports an entry that never finishes importing as definition.load, and goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-validate-unit-'));
    dirs.push(dir);
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'platform.json'),
      JSON.stringify({
        integrations: [
          { slug: 'hangs', entry: 'src/hangs.ts' },
          { slug: 'fine', entry: 'src/fine.ts' },
        ],
      }),
    );
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "noUncheckedIndexedAccess": true } }');
    writeFileSync(
      join(dir, 'src', 'hangs.ts'),
      "await new Promise(() => {});\nexport default { slug: 'hangs' };\n",
    );
    writeFileSync(join(dir, 'src', 'fine.ts'), "export default { slug: 'fine' };\n");

    const report = await validateProject({ cwd: dir, loadTimeoutMs: 3000 });
    expect(report.findings).toEqual([
      {
        id: 'definition.load',
        severity: 'error',
        message: 'src/hangs.ts did not finish importing within 3 s',
        path: 'src/hangs.ts',
        hint: expect.stringMatching(/^Remove top-level awaits/),
      },
    ]);
    expect(report.integrations.map((integration) => integration.loaded)).toEqual([false, true]);
  });
});
