import type { z } from 'zod/v4';
import { checkDefinitionRules } from './checkDefinitionRules.js';
import { type DefinitionShape, definitionSchemas, HOST_ASSIGNED_FIELDS } from './definitionShape.js';
import { type DefinitionProblem, IntegrationDefinitionError } from './IntegrationDefinitionError.js';

/** A definition that passed every check (schemas and functions are kept by reference). */
export type DefinitionData = z.output<DefinitionShape>;

export type ParseDefinitionResult =
  | { readonly ok: true; readonly definition: DefinitionData }
  | {
      readonly ok: false;
      readonly slug: string | undefined;
      readonly problems: readonly DefinitionProblem[];
      readonly error: IntegrationDefinitionError;
    };

const SKEW_HINT =
  'if the field is newer than your @platform/integration-schema, check for schema skew with `platform upgrade --check`';

/**
 * Checks a definition without throwing: every problem, with the spec's paths, in one result.
 * @example const result = parseDefinition(candidate); if (!result.ok) console.log(result.error.message);
 */
export function parseDefinition(input: unknown): ParseDefinitionResult {
  const slug =
    typeof input === 'object' && input !== null && typeof (input as { slug?: unknown }).slug === 'string'
      ? (input as { slug: string }).slug
      : undefined;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const received = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    return failure(slug, [
      {
        path: '(root)',
        message: `expected a definition object, received ${received}; pass an object literal to defineIntegration()`,
      },
    ]);
  }
  const shape = definitionSchemas().definitionShape.safeParse(input, { error: describeIssue });
  const problems = dedupe([
    ...(shape.success ? [] : shape.error.issues.flatMap(toProblems)),
    ...checkDefinitionRules(input as Record<string, unknown>),
  ]);
  if (problems.length > 0 || !shape.success) return failure(slug, problems);
  return { ok: true, definition: shape.data };
}

function failure(slug: string | undefined, problems: DefinitionProblem[]): ParseDefinitionResult {
  return { ok: false, slug, problems, error: new IntegrationDefinitionError(slug, problems) };
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}

// Zod's own messages for a missing or mistyped field, said the way the rest of our messages are.
function describeIssue(issue: { code?: string; expected?: unknown; input?: unknown }): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  const expected = withArticle(issue.expected === 'int' ? 'integer' : String(issue.expected));
  if (issue.input === undefined) return `is required; add ${expected}`;
  const received = issue.input === null ? 'null' : Array.isArray(issue.input) ? 'array' : typeof issue.input;
  return `expected ${expected}, received ${received}`;
}

const withArticle = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

function toProblems(issue: z.core.$ZodIssue): DefinitionProblem[] {
  const path = formatPath(issue.path);
  if (issue.code !== 'unrecognized_keys') return [{ path, message: issue.message }];
  const problems: DefinitionProblem[] = [];
  const keys = issue.keys.filter((key) => key !== 'redirectUri');
  if (keys.length < issue.keys.length) {
    problems.push({
      path,
      message:
        'unrecognized key "redirectUri": the host derives the callback URI from its own origin (https://<host>/api/integrations/<slug>/oauth/callback); remove it',
    });
  }
  if (keys.length > 0) {
    const hostAssigned = keys.filter((key) => (HOST_ASSIGNED_FIELDS as readonly string[]).includes(key));
    const quoted = keys.map((key) => `"${key}"`).join(', ');
    const base = `unrecognized key${keys.length === 1 ? '' : 's'} ${quoted}; remove ${keys.length === 1 ? 'it' : 'them'}`;
    const message =
      hostAssigned.length === 0
        ? `${base} (${SKEW_HINT})`
        : `${base}. ${hostAssigned.join(', ')} ${hostAssigned.length === 1 ? 'is' : 'are'} assigned by the host and never part of a definition (host-assigned fields: ${HOST_ASSIGNED_FIELDS.join(', ')}); ${SKEW_HINT}`;
    problems.push({ path, message });
  }
  return problems;
}

function dedupe(problems: DefinitionProblem[]): DefinitionProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.path}\n${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
