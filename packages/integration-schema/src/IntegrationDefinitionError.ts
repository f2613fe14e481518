/** One problem in a definition: where (`slug`, `(root)`, `components.widgets.0.id`...) and what to do. */
export interface DefinitionProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * Every problem of a definition, reported together: a header naming the slug, then one
 * `<path>: <message>` line per problem.
 */
export class IntegrationDefinitionError extends Error {
  override readonly name = 'IntegrationDefinitionError';
  readonly code = 'INVALID_DEFINITION';
  readonly slug: string | undefined;
  readonly problems: readonly DefinitionProblem[];

  constructor(slug: string | undefined, problems: readonly DefinitionProblem[]) {
    super(formatDefinitionProblems(slug, problems));
    this.slug = slug;
    this.problems = problems;
  }
}

/**
 * The text of an {@link IntegrationDefinitionError}.
 * @example formatDefinitionProblems('acme', [{ path: 'slug', message: '...' }])
 */
export function formatDefinitionProblems(
  slug: string | undefined,
  problems: readonly DefinitionProblem[],
): string {
  const name = slug === undefined || slug === '' ? 'without a slug' : `"${slug}"`;
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((problem) => `  ${problem.path}: ${problem.message}`);
  return [`Integration definition ${name} is invalid (${count}):`, ...lines].join('\n');
}
