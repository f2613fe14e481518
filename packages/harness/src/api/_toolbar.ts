import { HARNESS_HEADERS } from '../hooks/harnessRequestHeaders.js';
import type { HarnessToolbarState } from '../hooks/harnessToolbarState.js';
import { HARNESS_MODES, HARNESS_VARIANTS, type HarnessMode, type HarnessVariant } from '../types.js';

/**
 * Reads `x-harness-variant` (default `default`), `x-harness-mode` (default `fixtures`) and
 * `x-harness-record` (`1` or `0`, default `0`); a value outside those is a message naming the allowed ones.
 * @example readToolbar(request.headers) // { ok: true, state: { variant: 'default', mode: 'fixtures', record: false } }
 */
export function readToolbar(
  headers: Headers,
): { ok: true; state: HarnessToolbarState } | { ok: false; message: string } {
  const variant = headers.get(HARNESS_HEADERS.variant) ?? 'default';
  const mode = headers.get(HARNESS_HEADERS.mode) ?? 'fixtures';
  const record = headers.get(HARNESS_HEADERS.record) ?? '0';
  if (!isVariant(variant)) return { ok: false, message: variantMessage(variant, 'x-harness-variant header') };
  if (!(HARNESS_MODES as readonly string[]).includes(mode))
    return {
      ok: false,
      message: `x-harness-mode header "${mode}" is not a mode; send one of ${HARNESS_MODES.join(', ')} (default fixtures).`,
    };
  if (record !== '0' && record !== '1')
    return { ok: false, message: `x-harness-record header "${record}" must be 1 (record) or 0 (default).` };
  return { ok: true, state: { variant, mode: mode as HarnessMode, record: record === '1' } };
}

export function isVariant(value: unknown): value is HarnessVariant {
  return typeof value === 'string' && (HARNESS_VARIANTS as readonly string[]).includes(value);
}

export function variantMessage(value: unknown, where: string): string {
  return `${where} ${JSON.stringify(value)} is not a variant; send one of ${HARNESS_VARIANTS.join(', ')} (default default).`;
}
