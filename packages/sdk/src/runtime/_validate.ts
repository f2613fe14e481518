import type { StandardSchemaV1 } from '@platform/integration-schema';

/** A validation issue as it goes on the wire: zod's own fields kept, path flattened to keys. */
export interface ValidationIssue {
  readonly message: string;
  readonly path: (string | number)[];
  readonly code?: string;
  readonly [extra: string]: unknown;
}

export type ValidationResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: ValidationIssue[] };

export async function validateWith(schema: StandardSchemaV1, value: unknown): Promise<ValidationResult> {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return { ok: true, value: result.value };
  return { ok: false, issues: result.issues.map(toIssue) };
}

function toIssue(issue: StandardSchemaV1.Issue): ValidationIssue {
  const path = (issue.path ?? []).map((segment) => {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    return typeof key === 'number' ? key : String(key);
  });
  const out: Record<string, unknown> = {};
  // Keep zod's discriminating fields (code, expected, keys...), dropping what is not JSON.
  for (const [key, value] of Object.entries(issue)) {
    if (key === 'path' || key === 'input' || typeof value === 'function' || typeof value === 'symbol')
      continue;
    if (typeof value === 'bigint') out[key] = value.toString();
    else out[key] = value;
  }
  return { ...out, message: issue.message, path } as ValidationIssue;
}

/** One line per issue, for logs and developer errors. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
