import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';

/** One failing test (or a test file that failed as a whole: `name` is `(file)`). */
export interface TestFailure {
  readonly name: string;
  /** Relative to the project. */
  readonly file: string;
  readonly line: number | undefined;
  readonly message: string;
}

/** What vitest's JSON report says. */
export interface VitestReport {
  readonly total: number;
  readonly failures: TestFailure[];
}

interface JsonReport {
  readonly numTotalTests?: number;
  readonly testResults?: readonly {
    readonly name: string;
    readonly status?: string;
    readonly message?: string;
    readonly assertionResults?: readonly {
      readonly ancestorTitles?: readonly string[];
      readonly title?: string;
      readonly status?: string;
      readonly failureMessages?: readonly string[];
      readonly location?: { readonly line?: number };
    }[];
  }[];
}

/**
 * Reads vitest's JSON report (`--reporter=json`, the Jest-compatible shape); `undefined` when the
 * run ended before writing one. (The CLI's `platform test` reads the same shape for partners.)
 */
export async function readVitestReport(
  reportFile: string,
  projectDir: string,
): Promise<VitestReport | undefined> {
  let report: JsonReport;
  try {
    report = JSON.parse(await readFile(reportFile, 'utf8')) as JsonReport;
  } catch {
    return undefined;
  }
  const failures: TestFailure[] = [];
  for (const result of report.testResults ?? []) {
    const file = relative(projectDir, result.name).split(sep).join('/');
    const assertions = result.assertionResults ?? [];
    const failed = assertions.filter((assertion) => assertion.status === 'failed');
    // `message` is the file's own error (it did not load, a hook threw); empty when only tests failed.
    if ((result.message ?? '') !== '' || (result.status === 'failed' && failed.length === 0)) {
      failures.push({
        name: '(file)',
        file,
        line: undefined,
        message: firstLine(result.message ?? '') || 'the file failed to run',
      });
    }
    for (const assertion of failed) {
      const error = assertion.failureMessages?.[0] ?? '';
      failures.push({
        name: [...(assertion.ancestorTitles ?? []), assertion.title ?? ''].join(' > '),
        file,
        line: lineIn(error, result.name) ?? assertion.location?.line,
        message: firstLine(error) || 'the test failed without a message',
      });
    }
  }
  return { total: report.numTotalTests ?? 0, failures };
}

const firstLine = (text: string) => (text.split('\n').find((line) => line.trim() !== '') ?? '').trim();

// The line of the first stack frame in the test file itself: where the assertion failed.
function lineIn(stack: string, file: string): number | undefined {
  for (const line of stack.split('\n')) {
    const at = line.indexOf(`${file}:`);
    if (at === -1) continue;
    const match = /^:(\d+):\d+/.exec(line.slice(at + file.length));
    if (match !== null) return Number(match[1]);
  }
  return undefined;
}
