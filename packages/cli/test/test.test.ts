import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestReport } from '@platform/cli';
import { beforeAll, describe, expect, it } from 'vitest';
import { envelopeOf, linkRepoNodeModules, run, tempDirectories, writeFiles } from './_helpers.js';

const tempDir = tempDirectories();

// A project whose tests partly fail: one assertion at a known line, and a file that cannot load.
const FILES = {
  'package.json': '{ "name": "fixture", "private": true, "type": "module" }\n',
  'platform.json': '{ "integrations": [{ "slug": "acme", "entry": "src/integration.ts" }] }\n',
  'src/math.test.ts': `import { describe, expect, it } from 'vitest';

describe('math', () => {
  it('adds', () => {
    expect(1 + 1).toBe(2);
  });
  it('subtracts', () => {
    const value = 3 - 1;
    expect(value).toBe(3);
  });
  it.skip('divides', () => {});
});
`,
  'src/broken.test.ts': `import { it } from 'vitest';

throw new Error('the fixture cannot load');
it('never runs', () => {});
`,
  'src/ok.test.ts': `import { expect, it } from 'vitest';

it('passes', () => {
  expect([1, 2]).toHaveLength(2);
});
`,
};

let dir: string;
beforeAll(() => {
  dir = tempDir();
  writeFiles(dir, FILES);
  linkRepoNodeModules(dir);
});

describe('platform test', () => {
  it('runs vitest, then lists each failure with file:line and its first assertion message; exits with vitest’s code', async () => {
    const result = await run(['test'], { cwd: dir });
    expect(result.code).toBe(1);
    const appendix = result.stdout.slice(result.stdout.indexOf('Failures appendix'));
    expect(appendix).toContain('Failures appendix (2)');
    expect(appendix).toContain(
      'math > subtracts\n     src/math.test.ts:9\n     AssertionError: expected 2 to be 3 // Object.is equality',
    );
    expect(appendix).toContain('(file)\n     src/broken.test.ts\n     the fixture cannot load');
    expect(result.stdout).not.toContain('\u001b[');
    // The manifest's entry does not exist: a definition problem, listed after the failures.
    expect(result.stderr).toContain(
      'Error [tests_failed] 2 failures: 1 of 4 tests failed, and 1 test file failed to run. The integration definitions have 1 problem.',
    );
    expect(result.stderr).toContain(
      'Hint: Fix the definition problems and failures listed in the appendix above',
    );
  });

  it('prints only vitest’s own output with --raw', async () => {
    const result = await run(['test', '--raw'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('subtracts');
    expect(result.stdout).not.toContain('Failures appendix');
    expect(result.stdout).not.toContain('JSON report written');
    expect(result.stderr).toContain('Error [tests_failed] The tests failed (vitest exit code 1).');
  });

  it('gives counts and failures with --json, and nothing else on stdout', async () => {
    const result = await run(['test', '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    const envelope = envelopeOf<TestReport>(result);
    expect(envelope.error?.code).toBe('tests_failed');
    expect(envelope.data?.counts).toEqual({
      total: 4,
      passed: 2,
      failed: 1,
      skipped: 1,
      todo: 0,
      failedFiles: 1,
    });
    expect(envelope.data?.failures).toHaveLength(2);
    expect(envelope.data?.findings).toEqual([
      expect.objectContaining({ id: 'definition.load', path: 'src/integration.ts' }),
    ]);
    expect(envelope.data?.failures).toContainEqual({
      name: 'math > subtracts',
      file: 'src/math.test.ts',
      line: 9,
      message: 'AssertionError: expected 2 to be 3 // Object.is equality',
    });
    expect(envelope.data?.reportFile).toBe(join(dir, '.platform', 'test-report.json'));
    expect(existsSync(join(dir, '.platform', 'test-report.json'))).toBe(true);
  });

  it('passes arguments after -- to vitest, and exits 0 when the tests pass', async () => {
    const result = await run(['test', '--json', '--', 'src/ok.test.ts'], { cwd: dir });
    expect(result.code).toBe(0);
    const envelope = envelopeOf<TestReport>(result);
    expect(envelope.ok).toBe(true);
    expect(envelope.data?.counts).toEqual({
      total: 1,
      passed: 1,
      failed: 0,
      skipped: 0,
      todo: 0,
      failedFiles: 0,
    });
    expect(envelope.data?.failures).toEqual([]);
  });

  it('fails with tests_unavailable when the project has no vitest', async () => {
    const bare = tempDir();
    writeFiles(bare, { 'package.json': '{ "name": "bare" }\n' });
    const result = await run(['test', '--json'], { cwd: bare });
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error).toEqual({
      code: 'tests_unavailable',
      message: `vitest is not installed in ${bare}.`,
      hint: "Install the project's dependencies (`npm install`), or add vitest: `npm install -D vitest@^4.1.12`.",
    });
  });
});
