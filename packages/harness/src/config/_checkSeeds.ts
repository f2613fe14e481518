import { checkKeys, describeValue, isRecord, type Report } from './_shape.js';

const SEED_KEYS = ['queryKey', 'data', 'error'] as const;

/**
 * Checks a list of react-query seeds: `{ queryKey, data }` or `{ queryKey, error }` (error wins when
 * both are set), one seed per query key.
 */
export function checkSeeds(value: unknown, field: string, report: Report): void {
  if (!Array.isArray(value)) {
    report(
      field,
      `must be an array of seeds ({ queryKey, data } or { queryKey, error }), not ${describeValue(value)}.`,
    );
    return;
  }
  const seen = new Map<string, number>();
  for (const [index, seed] of value.entries()) {
    const at = `${field}[${index}]`;
    if (!isRecord(seed)) {
      report(
        at,
        `must be a seed object { queryKey, data } or { queryKey, error }, not ${describeValue(seed)}.`,
      );
      continue;
    }
    checkKeys(seed, SEED_KEYS, at, report);
    if (!Array.isArray(seed.queryKey)) {
      report(
        `${at}.queryKey`,
        `must be an array, the query's key as the widget passes it to useQuery (for example ['notes']), not ${describeValue(seed.queryKey)}.`,
      );
    } else {
      const hash = stableHash(seed.queryKey);
      const first = hash === undefined ? undefined : seen.get(hash);
      if (first !== undefined) {
        report(
          `${at}.queryKey`,
          `duplicates the queryKey of ${field}[${first}]; keep one seed per query key.`,
        );
      } else if (hash !== undefined) {
        seen.set(hash, index);
      }
    }
    // react-query refuses `undefined` as data, so a seed must say something: data (null is fine) or an error.
    if (seed.data === undefined && seed.error === undefined) {
      report(
        at,
        'has neither data nor error; set data (the query result) or error (to show the error state).',
      );
    }
  }
}

// The same idea as react-query's key hash: object keys sorted, so { a, b } and { b, a } are one key.
// A key JSON cannot spell (a bigint, a cycle) has no hash: it is never called a duplicate.
function stableHash(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_key, item: unknown) =>
      isRecord(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))) : item,
    );
  } catch {
    return undefined;
  }
}
