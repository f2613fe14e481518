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

describe('validateProject: a connection', () => {
  it('reports a verify URL outside egress and a header naming an undeclared field as definition.connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-validate-connection-'));
    dirs.push(dir);
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'platform.json'),
      JSON.stringify({ integrations: [{ slug: 'keys', entry: 'src/keys.ts' }] }),
    );
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "noUncheckedIndexedAccess": true } }');
    writeFileSync(
      join(dir, 'src', 'keys.ts'),
      `export default {
  slug: 'keys',
  egress: ['https://api.acme.com'],
  connection: {
    kind: 'apiKey',
    fields: [{ name: 'apiKey', label: 'API key', secret: true }],
    header: 'Bearer {token}',
    verify: { method: 'GET', url: 'https://auth.acme.com/me' },
  },
};
`,
    );
    const report = await validateProject({ cwd: dir, loadTimeoutMs: 10_000 });
    expect(
      report.findings.map((item) => ({ id: item.id, severity: item.severity, path: item.path })),
    ).toEqual([
      { id: 'definition.connection', severity: 'error', path: 'connection.header' },
      { id: 'definition.connection', severity: 'error', path: 'connection.verify.url' },
    ]);
  });
});
