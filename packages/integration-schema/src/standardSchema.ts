import type { StandardSchemaV1 } from '@standard-schema/spec';

export type { StandardSchemaV1 };

/**
 * True for any Standard Schema (zod 3 >= 3.25.76, zod 4, valibot, arktype...).
 * @example isStandardSchema(z.string()) // true
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const standard = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof standard === 'object' &&
    standard !== null &&
    (standard as { version?: unknown }).version === 1 &&
    typeof (standard as { validate?: unknown }).validate === 'function'
  );
}
