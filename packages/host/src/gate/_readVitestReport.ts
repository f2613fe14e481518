import { relative, sep } from 'node:path';
import { parseVitestReport } from '@platform/wire/vitest-report';

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

/**
 * Reads vitest's JSON report (`--reporter=json`, the Jest-compatible shape), as the host received
 * it on its pipe; `undefined` when the run ended before writing one (or wrote something else). The reading is `@platform/wire/vitest-report`'s, shared with the
 * CLI's `platform test`; here paths become project-relative with `/`.
 */
export function readVitestReport(text: string, projectDir: string): VitestReport | undefined {
  if (text === '') return undefined;
  const report = parseVitestReport(text);
  if (report === undefined) return undefined;
  return {
    total: report.counts.total,
    failures: report.failures.map((failure) => ({
      name: failure.name,
      file: relative(projectDir, failure.file).split(sep).join('/'),
      line: failure.line,
      message: failure.kind === 'file' ? failure.message || 'the file failed to run' : failure.message!,
    })),
  };
}
