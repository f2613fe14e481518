// @vitest-environment happy-dom
import { HARNESS_ERROR_CODES, LiveActionNotConfirmedError } from '@platform/harness';
import {
  confirmLiveAction,
  HarnessToolbarProvider,
  liveConfirmationKey,
  useConfirmLiveAction,
  useHarnessToolbar,
} from '@platform/harness/hooks';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

afterEach(() => {
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('confirmLiveAction', () => {
  it('never asks in fixtures mode', () => {
    const confirm = vi.fn(() => false);
    confirmLiveAction('acme-notes', { mode: 'fixtures', confirm, storage: memoryStorage() });
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks once per integration in live mode and remembers acceptance in the session storage', () => {
    const storage = memoryStorage();
    const confirm = vi.fn(() => true);
    confirmLiveAction('acme-notes', { mode: 'live', action: 'create-note', confirm, storage });
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm.mock.calls[0]).toEqual([
      expect.stringContaining('The action "create-note" of "acme-notes"'),
    ]);
    expect(storage.items.get('platform-harness:live-confirmed:acme-notes')).toBe('1');

    confirmLiveAction('acme-notes', { mode: 'live', action: 'delete-note', confirm, storage });
    expect(confirm).toHaveBeenCalledTimes(1);
    // Another integration asks for itself.
    confirmLiveAction('acme-crm', { mode: 'live', confirm, storage });
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('throws LiveActionNotConfirmedError when declined, remembers nothing, and asks again next time', () => {
    const storage = memoryStorage();
    const confirm = vi.fn(() => false);
    let caught: unknown;
    try {
      confirmLiveAction('acme-notes', { mode: 'live', action: 'create-note', confirm, storage });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LiveActionNotConfirmedError);
    const error = caught as LiveActionNotConfirmedError;
    expect(error).toMatchObject({
      code: HARNESS_ERROR_CODES.liveActionNotConfirmed,
      slug: 'acme-notes',
      action: 'create-note',
    });
    expect(error.message).toContain('was not confirmed, so the request was not sent');
    expect(storage.items.size).toBe(0);
    expect(() => confirmLiveAction('acme-notes', { mode: 'live', confirm, storage })).toThrow(
      LiveActionNotConfirmedError,
    );
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('uses window.confirm and sessionStorage by default', () => {
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    confirmLiveAction('acme-notes', { mode: 'live' });
    confirmLiveAction('acme-notes', { mode: 'live' });
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(liveConfirmationKey('acme-notes'))).toBe('1');
  });

  it('asks every time when the storage cannot be used', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    const confirm = vi.fn(() => true);
    confirmLiveAction('acme-notes', { mode: 'live', confirm, storage: broken });
    confirmLiveAction('acme-notes', { mode: 'live', confirm, storage: broken });
    expect(confirm).toHaveBeenCalledTimes(2);
  });
});

describe('useConfirmLiveAction', () => {
  it('follows the toolbar’s mode', () => {
    const confirm = vi.fn(() => false);
    const storage = memoryStorage();
    const { result } = renderHook(
      () => ({
        toolbar: useHarnessToolbar(),
        confirmLive: useConfirmLiveAction('acme-notes', { confirm, storage }),
      }),
      {
        wrapper: ({ children }: { children: ReactNode }) => (
          <HarnessToolbarProvider>{children}</HarnessToolbarProvider>
        ),
      },
    );
    result.current.confirmLive('create-note');
    expect(confirm).not.toHaveBeenCalled();
    act(() => result.current.toolbar.setMode('live'));
    expect(() => result.current.confirmLive('create-note')).toThrow(LiveActionNotConfirmedError);
    expect(confirm).toHaveBeenCalledTimes(1);
  });
});
