import type { HarnessMode, HarnessRegistryEntry, HarnessVariant } from '../types.js';

/** What the harness toolbar has chosen: the fixture variant, the data mode, and the record switch. */
export interface HarnessToolbarState {
  readonly variant: HarnessVariant;
  readonly mode: HarnessMode;
  /** Record live responses (meaningful in live mode only). */
  readonly record: boolean;
}

/**
 * Where the toolbar starts for an entry: the `default` variant, live mode when the entry's
 * `live.default` is `'live'`, fixtures otherwise, not recording.
 * @example initialToolbarState(entry) // { variant: 'default', mode: 'fixtures', record: false }
 */
export function initialToolbarState(entry?: Pick<HarnessRegistryEntry, 'live'>): HarnessToolbarState {
  return { variant: 'default', mode: entry?.live?.default === 'live' ? 'live' : 'fixtures', record: false };
}

/**
 * The state requests actually run under: live mode needs the entry's `live` block (the toolbar only
 * offers Live API with one), so without it the entry stays on fixtures; recording exists only live.
 * @example effectiveToolbarState({}, { variant: 'default', mode: 'live', record: true }).mode // 'fixtures': no live block
 */
export function effectiveToolbarState(
  entry: Pick<HarnessRegistryEntry, 'live'>,
  state: HarnessToolbarState,
): HarnessToolbarState {
  const mode: HarnessMode = state.mode === 'live' && entry.live !== undefined ? 'live' : 'fixtures';
  return { variant: state.variant, mode, record: mode === 'live' && state.record };
}
