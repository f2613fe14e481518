import { CliError } from '../cli/CliError.js';

/** A response schema of @platform/wire, as far as the CLI uses it (zod's `safeParse`). */
export interface WireSchema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * The `data` of a host's answer, checked against its @platform/wire schema at run time: a host of
 * another version (or not a Platform host) answering another shape is `host_error` naming the
 * route and the first field that does not fit, instead of a crash further on.
 * @example const { sessions } = readHostData(origin, 'GET /api/platform/sessions', sessionsResponseSchema, answer.data);
 */
export function readHostData<T>(origin: string, route: string, schema: WireSchema<T>, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'data' : issue.path.map(String).join('.');
  throw new CliError(
    'host_error',
    `${origin} answered ${route} with an unexpected shape: ${where}: ${issue?.message ?? 'invalid'}.`,
    {
      hint: `Check that ${origin} is a Platform host of a version this CLI speaks to (\`platform upgrade\` updates the CLI).`,
    },
  );
}
