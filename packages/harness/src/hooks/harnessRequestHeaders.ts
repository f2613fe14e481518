import type { HarnessToolbarState } from './harnessToolbarState.js';

/**
 * The headers the toolbar state travels in, so the harness API handlers keep no per-tab state, and
 * the one the actions route answers with: the handler's `ctx.fetch` hops for the request log.
 */
export const HARNESS_HEADERS = {
  variant: 'x-harness-variant',
  mode: 'x-harness-mode',
  record: 'x-harness-record',
  hops: 'x-harness-hops',
} as const;

/**
 * The toolbar headers for one request: variant and mode always, `x-harness-record: 1` only when
 * recording in live mode.
 * @example harnessRequestHeaders({ variant: 'empty', mode: 'live', record: true })
 * // { 'x-harness-variant': 'empty', 'x-harness-mode': 'live', 'x-harness-record': '1' }
 */
export function harnessRequestHeaders(state: HarnessToolbarState): Record<string, string> {
  const headers: Record<string, string> = {
    [HARNESS_HEADERS.variant]: state.variant,
    [HARNESS_HEADERS.mode]: state.mode,
  };
  if (state.mode === 'live' && state.record) headers[HARNESS_HEADERS.record] = '1';
  return headers;
}
