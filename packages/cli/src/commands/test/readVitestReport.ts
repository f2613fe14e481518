import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseVitestReport, type VitestCounts } from '@platform/wire/vitest-report';

/** How many tests ran and how they ended: the report's own counts (`parseVitestReport`). */
export type TestCounts = VitestCounts;

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

/**
 * Reads vitest's JSON report (`--reporter=json`, the Jest-compatible shape every vitest version
 * writes) into counts and failures; `undefined` when the run ended before writing one. The reading
 * is `@platform/wire/vitest-report`'s, shared with the host's gate.
 */
export function readVitestReport(
  reportPath: string,
  projectDir: string,
): { counts: TestCounts; failures: TestFailure[] } | undefined {
  if (!existsSync(reportPath)) return undefined;
  let text: string;
  try {
    text = readFileSync(reportPath, 'utf8');
  } catch {
    return undefined;
  }
  const report = parseVitestReport(text);
  if (report === undefined) return undefined;
  return {
    counts: report.counts,
    failures: report.failures.map((failure) => ({
      name: failure.name,
      file: relative(projectDir, failure.file),
      line: failure.line ?? null,
      // A file's message is its first line as the report gave it; none at all reads as below.
      message: failure.message ?? 'the file failed to run',
    })),
  };
}
