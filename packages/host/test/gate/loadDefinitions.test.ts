// definition.load / definition.schema without an install: a scratch project resolves @platform/sdk
// from the host's own tree (buildBundle's fallback), and `describe` is a stub throwing what a
// runtime throws.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDefinitionProblems } from '@platform/integration-schema';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckLog } from '../../src/gate/_checkLog.js';
import { loadDefinitions } from '../../src/gate/_loadDefinitions.js';
import { parseTscOutput } from '../../src/gate/_typecheck.js';

let projectDir: string;
let hostOnly: string;

beforeAll(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'platform-gate-defs-'));
  hostOnly = await mkdtemp(join(tmpdir(), 'platform-gate-host-only-'));
  await mkdir(join(projectDir, 'src'), { recursive: true });
  await writeFile(join(projectDir, 'src/ok.ts'), "export default { slug: 'acme' };\n");
  await writeFile(join(projectDir, 'src/broken.ts'), "export default { slug: 'acme' ;\n");
  await writeFile(join(hostOnly, 'secret.json'), JSON.stringify({ key: 'host secret' }));
  await writeFile(
    join(projectDir, 'src/outside.ts'),
    `import secret from ${JSON.stringify(join(hostOnly, 'secret.json'))};\nexport default { slug: 'acme', secret };\n`,
  );
  await writeFile(
    join(projectDir, 'src/missing-import.ts'),
    "import x from 'left-pad-nowhere';\nexport default x;\n",
  );
});
afterAll(async () => {
  await rm(projectDir, { recursive: true, force: true });
  await rm(hostOnly, { recursive: true, force: true });
});

const load = (entry: string, describeBundle: (bundle: string) => Promise<DefinitionManifest>) =>
  loadDefinitions({
    projectDir,
    manifest: { integrations: [{ slug: 'acme', entry, raw: {} }] },
    describe: describeBundle,
    loadLog: new CheckLog(4096),
    schemaLog: new CheckLog(4096),
  });

describe('loadDefinitions', () => {
  it('refuses to bundle a file from outside the project (a host file never reaches a bundle)', async () => {
    let described = false;
    const result = await load('src/outside.ts', async () => {
      described = true;
      throw new Error('not reached');
    });
    expect(described).toBe(false);
    expect(result.integrations).toEqual([]);
    expect(result.loadFindings.map((item) => item.code)).toEqual(['definition.load']);
    expect(result.loadFindings[0]?.message).toContain('outside the project');
    expect(JSON.stringify(result)).not.toContain('host secret');
  });

  it('reads an IntegrationDefinitionError that crossed an isolate as name and message: one finding per problem', async () => {
    const problems = [
      { path: 'slug', message: 'must be kebab-case; use "acme-notes"' },
      {
        path: 'schedules[nightly]',
        message: 'invalid cron "61 * * * *": minute field "61" is out of range 0-59',
      },
    ];
    const result = await load('src/ok.ts', async () => {
      const error = new Error(formatDefinitionProblems('Acme', problems));
      error.name = 'IntegrationDefinitionError';
      throw error;
    });
    expect(result.loadFindings).toEqual([]);
    expect(result.checked).toBe(1);
    expect(result.integrations).toEqual([]);
    expect(result.schemaFindings.map((item) => [item.code, item.message, item.file])).toEqual([
      ['definition.schema', 'acme: slug: must be kebab-case; use "acme-notes"', 'src/ok.ts'],
      [
        'definition.schema',
        'acme: schedules[nightly]: invalid cron "61 * * * *": minute field "61" is out of range 0-59',
        'src/ok.ts',
      ],
    ]);
  });

  it('gives definition.load for any other failure to load', async () => {
    const result = await load('src/ok.ts', async () => {
      throw new Error('isolate ran out of memory');
    });
    expect(result.checked).toBe(0);
    expect(result.loadFindings).toEqual([
      expect.objectContaining({
        check: 'definition.load',
        message: 'acme (src/ok.ts) failed to load: Error: isolate ran out of memory',
        file: 'src/ok.ts',
      }),
    ]);
  });

  it('gives definition.load with file and line for an entry that does not build', async () => {
    const never = async (): Promise<DefinitionManifest> => {
      throw new Error('not reached');
    };
    const syntax = await load('src/broken.ts', never);
    expect(syntax.loadFindings).toEqual([
      expect.objectContaining({ code: 'definition.load', file: 'src/broken.ts', line: 1 }),
    ]);
    expect(syntax.loadFindings[0]!.message).toMatch(/^acme \(src\/broken\.ts\) does not build: Expected "}"/);
    const unresolved = await load('src/missing-import.ts', never);
    expect(unresolved.loadFindings[0]).toMatchObject({
      file: 'src/missing-import.ts',
      line: 1,
      hint: 'Add the package "left-pad-nowhere" to the project\'s dependencies, run `npm install`, and publish again.',
    });
  });

  it('returns the bundle and manifest of a valid definition', async () => {
    const result = await load('src/ok.ts', async (bundle) => {
      expect(bundle).toContain('__platformRunGuestCall');
      return { slug: 'acme' } as DefinitionManifest;
    });
    expect(result.schemaFindings).toEqual([]);
    expect(result.integrations).toEqual([
      { slug: 'acme', manifest: { slug: 'acme' }, bundle: expect.any(String) },
    ]);
  });
});

describe('parseTscOutput', () => {
  it('reads located and global errors, joining continuation lines', () => {
    const output = [
      "src/a.ts(3,7): error TS2322: Type '{ a: string; }' is not assignable to type 'B'.",
      "  Object literal may only specify known properties, and 'a' does not exist in type 'B'.",
      "error TS5083: Cannot read file '/x/tsconfig.base.json'.",
      "src/dir (1)/b.ts(10,1): error TS1005: ';' expected.",
      '',
    ].join('\n');
    expect(parseTscOutput(output)).toEqual([
      {
        file: 'src/a.ts',
        line: 3,
        column: 7,
        code: 'TS2322',
        message:
          "Type '{ a: string; }' is not assignable to type 'B'. Object literal may only specify known properties, and 'a' does not exist in type 'B'.",
      },
      { code: 'TS5083', message: "Cannot read file '/x/tsconfig.base.json'." },
      { file: 'src/dir (1)/b.ts', line: 10, column: 1, code: 'TS1005', message: "';' expected." },
    ]);
  });
});
