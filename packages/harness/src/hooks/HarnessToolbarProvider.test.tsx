// @vitest-environment happy-dom
import { HarnessToolbarProvider, useHarnessToolbar } from '@platform/harness/hooks';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

describe('HarnessToolbarProvider / useHarnessToolbar', () => {
  it('starts on default, fixtures, not recording, and applies the setters', () => {
    const onChange = vi.fn();
    const { result } = renderHook(() => useHarnessToolbar(), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <HarnessToolbarProvider onChange={onChange}>{children}</HarnessToolbarProvider>
      ),
    });
    expect(result.current).toMatchObject({ variant: 'default', mode: 'fixtures', record: false });
    expect(onChange).not.toHaveBeenCalled();

    act(() => {
      // Two setters in one event both land.
      result.current.setVariant('empty');
      result.current.setMode('live');
    });
    expect(result.current).toMatchObject({ variant: 'empty', mode: 'live', record: false });
    act(() => result.current.setRecord(true));
    expect(result.current.record).toBe(true);
    expect(onChange).toHaveBeenLastCalledWith({ variant: 'empty', mode: 'live', record: true });
    expect(onChange).toHaveBeenCalledTimes(2);

    // Setting the same value is not a change.
    act(() => result.current.setRecord(true));
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('starts where `initial` says', () => {
    const { result } = renderHook(() => useHarnessToolbar(), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <HarnessToolbarProvider initial={{ variant: 'error', mode: 'live' }}>
          {children}
        </HarnessToolbarProvider>
      ),
    });
    expect(result.current).toMatchObject({ variant: 'error', mode: 'live', record: false });
  });

  it('throws outside a provider, naming the fix', () => {
    // React reports the render error on the console before the throw reaches the test.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useHarnessToolbar())).toThrow(
      'useHarnessToolbar() needs a HarnessToolbarProvider above it',
    );
    consoleError.mockRestore();
  });
});
