import { HARNESS_ERROR_CODES } from '../errors.js';

/**
 * One problem in `harness.config.ts`: which entry (its slug, or `[index]` when it has no usable
 * slug), which field (`widgets[1].id`, `fixtures.default[0].status`), and what to do about it.
 */
export interface HarnessConfigProblem {
  readonly entry: string;
  readonly field: string;
  readonly message: string;
}

/**
 * Every problem of a harness configuration, reported together, one line each, so a partner fixes
 * them in one pass instead of one reload per mistake.
 * @example
 * try { defineHarnessConfig(entries); }
 * catch (error) { if (error instanceof HarnessConfigError) console.log(error.problems); }
 */
export class HarnessConfigError extends Error {
  override readonly name = 'HarnessConfigError';
  readonly code = HARNESS_ERROR_CODES.config;
  readonly problems: readonly HarnessConfigProblem[];

  constructor(problems: readonly HarnessConfigProblem[], options?: ErrorOptions) {
    super(formatHarnessConfigProblems(problems), options);
    this.problems = problems;
  }
}

/**
 * The text of a {@link HarnessConfigError}: a count, then `<entry> <field>: <message>` per problem.
 * @example formatHarnessConfigProblems([{ entry: 'acme', field: 'slug', message: '...' }])
 */
export function formatHarnessConfigProblems(problems: readonly HarnessConfigProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((problem) => `  ${problem.entry} ${problem.field}: ${problem.message}`);
  return [`harness.config.ts has ${count}:`, ...lines].join('\n');
}
