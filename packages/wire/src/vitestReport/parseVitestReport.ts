// Vitest's JSON report (`--reporter=json`, the Jest-compatible shape every vitest version writes),
// read in one place for the host's gate (`checks/tests`) and the CLI's `platform test`. No file
// system here: each caller reads the file its own way and makes paths relative to its project.

/** How many tests ran and how they ended, as the report counts them. */
export interface VitestCounts {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly todo: number;
  /**
   * Test files that failed as a whole (did not load, a top-level or hook error), each a failure
   * of its own besides `failed`.
   */
  readonly failedFiles: number;
}

/** One failure of the report: a test, or a test file that failed as a whole. */
export interface VitestFailure {
  /** `describe > it`; `(file)` when the file itself failed to run. */
  readonly name: string;
  readonly kind: 'test' | 'file';
  /** The test file as the report names it (an absolute path). */
  readonly file: string;
  /** The line of the failing assertion in `file`, else where the test is declared; none for a file. */
  readonly line: number | undefined;
  /**
   * The first non-blank line of the error. A test without one says `the test failed without a
   * message`; for a file it is `undefined` when the report gave no message at all (callers word
   * that case), and may be `''` when the message was blank.
   */
  readonly message: string | undefined;
}

/** What the report says: counts and failures in report order (a file's own failure first). */
export interface VitestReportSummary {
  readonly counts: VitestCounts;
  readonly failures: readonly VitestFailure[];
}

interface JsonAssertion {
  readonly ancestorTitles?: readonly string[];
  readonly title?: string;
  readonly status?: string;
  readonly failureMessages?: readonly string[];
  readonly location?: { readonly line?: number };
}

interface JsonReport {
  readonly numTotalTests?: number;
  readonly numPassedTests?: number;
  readonly numFailedTests?: number;
  readonly numPendingTests?: number;
  readonly numTodoTests?: number;
  readonly testResults?: readonly {
    readonly name: string;
    readonly status?: string;
    readonly message?: string;
    readonly assertionResults?: readonly JsonAssertion[];
  }[];
}

/**
 * The counts and failures of a vitest JSON report's text; `undefined` when it is not JSON (the run
 * ended while writing it).
 * @example parseVitestReport(readFileSync(reportFile, 'utf8'))?.failures
 */
export function parseVitestReport(text: string): VitestReportSummary | undefined {
  let report: JsonReport;
  try {
    report = JSON.parse(text) as JsonReport;
  } catch {
    return undefined;
  }
  const failures: VitestFailure[] = [];
  let failedFiles = 0;
  for (const result of report.testResults ?? []) {
    const assertions = result.assertionResults ?? [];
    const failed = assertions.filter((assertion) => assertion.status === 'failed');
    // `message` is the file's own first error (it did not load, a hook threw); empty when only tests failed.
    if ((result.message ?? '') !== '' || (result.status === 'failed' && failed.length === 0)) {
      failedFiles++;
      failures.push({
        name: '(file)',
        kind: 'file',
        file: result.name,
        line: undefined,
        message: result.message === undefined ? undefined : firstLine(result.message),
      });
    }
    for (const assertion of failed) {
      const error = assertion.failureMessages?.[0] ?? '';
      failures.push({
        name: [...(assertion.ancestorTitles ?? []), assertion.title ?? ''].join(' > '),
        kind: 'test',
        file: result.name,
        line: lineIn(error, result.name) ?? assertion.location?.line,
        message: firstLine(error) || 'the test failed without a message',
      });
    }
  }
  return {
    counts: {
      total: report.numTotalTests ?? 0,
      passed: report.numPassedTests ?? 0,
      failed: report.numFailedTests ?? 0,
      skipped: report.numPendingTests ?? 0,
      todo: report.numTodoTests ?? 0,
      failedFiles,
    },
    failures,
  };
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
