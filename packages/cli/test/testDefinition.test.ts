import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding, TestReport, ValidateReport } from '@platform/cli';
import { beforeAll, describe, expect, it } from 'vitest';
import { envelopeOf, linkRepoNodeModules, run, tempDirectories } from './_helpers.js';

const tempDir = tempDirectories();
const FIXTURE = join(import.meta.dirname, 'fixtures', 'broken-definition');
// vitest and the definition loading in one subprocess, on a machine that may be busy.
const SLOW = { timeoutMs: 180_000 };

// A project whose definition throws when imported (a slug that is not kebab-case, an unknown key):
// the test file importing it cannot load, while another test file passes.
let dir: string;
let validateFindings: Finding[];
beforeAll(async () => {
  dir = tempDir();
  cpSync(FIXTURE, dir, { recursive: true });
  linkRepoNodeModules(dir);
  const validate = envelopeOf<ValidateReport>(await run(['validate', '--json'], { cwd: dir, ...SLOW }));
  validateFindings = (validate.data?.findings ?? []).filter((item) => item.id.startsWith('definition.'));
}, 200_000);

describe('platform test on a project with a broken definition', { timeout: 200_000 }, () => {
  it('finds the same definition problems validate does', () => {
    expect(validateFindings.map((item) => [item.id, item.path])).toEqual([
      ['definition.schema', '(root)'],
      ['definition.schema', 'slug'],
    ]);
  });

  it('lists each definition problem as validate prints it, and counts the file that failed to load', async () => {
    const result = await run(['test'], { cwd: dir, ...SLOW });
    expect(result.code).toBe(1);
    const appendix = result.stdout.slice(result.stdout.indexOf('Failures appendix'));
    expect(appendix).toContain(
      'Failures appendix (1)\n  1. (file)\n     src/acme-notes/integration.test.ts\n     Integration definition "AcmeNotes" is invalid (2 problems):\n',
    );
    expect(appendix).toContain('Definition problems (2), as `platform validate` reports them\n');
    const validateOutput = (await run(['validate'], { cwd: dir, ...SLOW })).stdout;
    for (const item of validateFindings) {
      const rendered = [
        `error   definition.schema  ${item.message}`,
        `        at ${item.path}`,
        `        hint ${item.hint}`,
      ].join('\n');
      expect(appendix).toContain(rendered);
      expect(validateOutput).toContain(rendered);
    }
    expect(appendix).toMatch(
      /acme-notes \(src\/acme-notes\/integration\.ts\): slug "AcmeNotes" is not kebab-case/,
    );
    expect(appendix).toMatch(/acme-notes \(src\/acme-notes\/integration\.ts\): unrecognized key "colour"/);
    expect(result.stderr).toContain(
      'Error [tests_failed] 1 failure: 1 test file failed to run. The integration definitions have 2 problems.',
    );
    expect(result.stderr).toContain(
      'Hint: Fix the definition problems and failures listed in the appendix above, then run `platform test` again.',
    );
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\b0 of \d+ tests? failed/);
  });

  it('gives the findings, the failed file and its count in the --json envelope', async () => {
    const result = await run(['test', '--json'], { cwd: dir, ...SLOW });
    expect(result.code).toBe(1);
    const envelope = envelopeOf<TestReport>(result);
    expect(envelope.error).toEqual({
      code: 'tests_failed',
      message: '1 failure: 1 test file failed to run. The integration definitions have 2 problems.',
      hint: 'Fix the definition problems and failures listed in data.findings and data.failures, then run `platform test` again.',
    });
    expect(envelope.data?.counts).toEqual({
      total: 1,
      passed: 1,
      failed: 0,
      skipped: 0,
      todo: 0,
      failedFiles: 1,
    });
    expect(envelope.data?.failures).toEqual([
      {
        name: '(file)',
        file: 'src/acme-notes/integration.test.ts',
        line: null,
        message: 'Integration definition "AcmeNotes" is invalid (2 problems):',
      },
    ]);
    expect(envelope.data?.findings).toEqual(validateFindings);
  });
});
