import { HARNESS_VARIANTS, type HarnessVariant } from '../types.js';
import { describeValue, fieldPath, isRecord, type Report } from './_shape.js';

const VARIANT_LIST = HARNESS_VARIANTS.join(', ');

/**
 * Checks a per-variant record (`fixtures`, widget `seeds`, `oauth.connected`): only the toolbar's
 * variants as keys, each value checked by `checkValue`. A misspelt variant would otherwise be a
 * variant the toolbar never selects, and its fixtures would silently never answer.
 */
export function checkVariantRecord(
  value: unknown,
  field: string,
  report: Report,
  checkValue: (value: unknown, field: string, variant: HarnessVariant) => void,
): void {
  if (!isRecord(value)) {
    report(field, `must be an object keyed by variant (${VARIANT_LIST}), not ${describeValue(value)}.`);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const variant = HARNESS_VARIANTS.find((name) => name === key);
    if (variant === undefined) {
      report(
        fieldPath(field, key),
        `unknown variant "${key}"; the toolbar's variants are ${VARIANT_LIST}. Rename it to one of them.`,
      );
      continue;
    }
    checkValue(item, fieldPath(field, key), variant);
  }
}
