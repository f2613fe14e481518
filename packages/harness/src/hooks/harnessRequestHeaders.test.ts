import {
  effectiveToolbarState,
  HARNESS_HEADERS,
  harnessRequestHeaders,
  initialToolbarState,
} from '@platform/harness/hooks';
import { describe, expect, it } from 'vitest';

describe('harnessRequestHeaders', () => {
  it('carries variant and mode, and x-harness-record: 1 only when recording in live mode', () => {
    expect(harnessRequestHeaders({ variant: 'empty', mode: 'fixtures', record: true })).toEqual({
      'x-harness-variant': 'empty',
      'x-harness-mode': 'fixtures',
    });
    expect(harnessRequestHeaders({ variant: 'default', mode: 'live', record: false })).toEqual({
      'x-harness-variant': 'default',
      'x-harness-mode': 'live',
    });
    expect(harnessRequestHeaders({ variant: 'error', mode: 'live', record: true })).toEqual({
      [HARNESS_HEADERS.variant]: 'error',
      [HARNESS_HEADERS.mode]: 'live',
      [HARNESS_HEADERS.record]: '1',
    });
  });
});

describe('toolbar state', () => {
  it('starts on default and fixtures, or live when the entry opens live', () => {
    expect(initialToolbarState()).toEqual({ variant: 'default', mode: 'fixtures', record: false });
    expect(initialToolbarState({ live: { seeds: [] } })).toEqual({
      variant: 'default',
      mode: 'fixtures',
      record: false,
    });
    expect(initialToolbarState({ live: { default: 'live' } }).mode).toBe('live');
  });

  it('runs an entry without a live block on fixtures whatever the toolbar says', () => {
    const live = { variant: 'empty', mode: 'live', record: true } as const;
    expect(effectiveToolbarState({}, live)).toEqual({ variant: 'empty', mode: 'fixtures', record: false });
    expect(effectiveToolbarState({ live: {} }, live)).toEqual(live);
    expect(effectiveToolbarState({ live: {} }, { ...live, mode: 'fixtures' }).record).toBe(false);
  });
});
