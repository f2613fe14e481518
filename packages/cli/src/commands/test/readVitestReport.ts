import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** How many tests ran and how they ended. */
export interface TestCounts {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly todo: number;
  /**
   * Test files that failed as a whole, each a failure of its own besides `failed`: one that did
   * not load (an import or syntax error, a definition that throws, a throw at the top level or
   * while collecting a `describe`), or an error in a file-level hook.
   */
  readonly failedFiles: number;
}

/** One failing test: its name, where it failed, and the first line of its first error. */
export interface TestFailure {
  /** `describe > it`; `(file)` when the file itself failed to run. */
  readonly name: string;
  /** Relative to the project. */
  readonly file: string;
  /** The line of the failing assertion in `file` (else where the test is declared); `null` if unknown. */
  readonly line: number | null;
  readonly message: string;
}

interface JsonAssertion {
  readonly ancestorTitles?: readonly string[];
  readonly title?: string;
  readonly status?: string;
  readonly failureMessages?: readonly string[];
  readonly location?: { readonly line?: number };
}

interface JsonFileResult {
  readonly name: string;
  readonly status?: string;
  readonly message?: string;
  readonly assertionResults?: readonly JsonAssertion[];
}

interface JsonReport {
  readonly numTotalTests?: number;
  readonly numPassedTests?: number;
  readonly numFailedTests?: number;
  readonly numPendingTests?: number;
  readonly numTodoTests?: number;
  readonly testResults?: readonly JsonFileResult[];
}

/**
 * Reads vitest's JSON report (`--reporter=json`, the Jest-compatible shape every vitest version
 * writes) into counts and failures; `undefined` when the run ended before writing one.
 */
export function readVitestReport(
  reportPath: string,
  projectDir: string,
): { counts: TestCounts; failures: TestFailure[] } | undefined {
  if (!existsSync(reportPath)) return undefined;
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8')) as JsonReport;
  } catch {
    return undefined;
  }
  const failures: TestFailure[] = [];
  let failedFiles = 0;
  for (const file of report.testResults ?? []) {
    const path = relative(projectDir, file.name);
    const assertions = file.assertionResults ?? [];
    // `message` is the file's own first error; vitest leaves it empty when only tests failed.
    const fileError = file.message !== undefined && file.message !== '';
    if (
      fileError ||
      (file.status === 'failed' && !assertions.some((assertion) => assertion.status === 'failed'))
    ) {
      failedFiles++;
      failures.push({
        name: '(file)',
        file: path,
        line: null,
        message: firstLine(file.message ?? 'the file failed to run'),
      });
    }
    for (const assertion of assertions) {
      if (assertion.status !== 'failed') continue;
      const error = assertion.failureMessages?.[0] ?? '';
      failures.push({
        name: [...(assertion.ancestorTitles ?? []), assertion.title ?? ''].join(' > '),
        file: path,
        line: lineInFile(error, file.name) ?? assertion.location?.line ?? null,
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

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}

// The line of the first stack frame in the test file itself: where the assertion failed.
function lineInFile(stack: string, file: string): number | undefined {
  for (const line of stack.split('\n')) {
    const at = line.indexOf(`${file}:`);
    if (at === -1) continue;
    const match = /^:(\d+):\d+/.exec(line.slice(at + file.length));
    if (match !== null) return Number(match[1]);
  }
  return undefined;
}
