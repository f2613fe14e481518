import { parseVitestReport } from '@platform/wire/vitest-report';
import { describe, expect, it } from 'vitest';

const report = (testResults: unknown[], counts: Record<string, number> = {}) =>
  JSON.stringify({ numTotalTests: 3, numPassedTests: 1, numFailedTests: 1, ...counts, testResults });

describe('parseVitestReport', () => {
  it('is undefined for a report cut short', () => {
    expect(parseVitestReport('{"numTotalTests": 3, "testRes')).toBeUndefined();
  });

  it('counts and lists a failing test with the line of its assertion in the file', () => {
    const parsed = parseVitestReport(
      report([
        {
          name: '/p/src/a.test.ts',
          status: 'failed',
          message: '',
          assertionResults: [
            { title: 'passes', status: 'passed' },
            {
              ancestorTitles: ['notes'],
              title: 'lists',
              status: 'failed',
              failureMessages: ['\nAssertionError: expected 1 to be 2\n    at /p/src/a.test.ts:12:7'],
              location: { line: 10 },
            },
          ],
        },
      ]),
    );
    expect(parsed?.counts).toEqual({ total: 3, passed: 1, failed: 1, skipped: 0, todo: 0, failedFiles: 0 });
    expect(parsed?.failures).toEqual([
      {
        name: 'notes > lists',
        kind: 'test',
        file: '/p/src/a.test.ts',
        line: 12,
        message: 'AssertionError: expected 1 to be 2',
      },
    ]);
  });

  it('falls back to where the test is declared, and says when a test failed without a message', () => {
    const parsed = parseVitestReport(
      report([
        {
          name: '/p/b.test.ts',
          assertionResults: [{ title: 't', status: 'failed', failureMessages: [], location: { line: 4 } }],
        },
      ]),
    );
    expect(parsed?.failures[0]).toMatchObject({ line: 4, message: 'the test failed without a message' });
  });

  it('reports a file that failed as a whole, keeping an absent message apart from a blank one', () => {
    const parsed = parseVitestReport(
      report([
        { name: '/p/c.test.ts', status: 'failed', message: 'Error: Cannot find module x\n  at ...' },
        { name: '/p/d.test.ts', status: 'failed' },
        { name: '/p/e.test.ts', status: 'failed', message: '  \n' },
      ]),
    );
    expect(parsed?.counts.failedFiles).toBe(3);
    expect(parsed?.failures.map(({ kind, message, line }) => ({ kind, message, line }))).toEqual([
      { kind: 'file', message: 'Error: Cannot find module x', line: undefined },
      { kind: 'file', message: undefined, line: undefined },
      { kind: 'file', message: '', line: undefined },
    ]);
  });
});
