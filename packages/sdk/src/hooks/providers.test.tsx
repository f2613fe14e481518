// @vitest-environment happy-dom
import {
  ActivationProviderMissingError,
  IntegrationActivationDataProvider,
  IntegrationActivationProvider,
  IntegrationFetchProvider,
  useActivateIntegration,
  useActivationData,
  useDeactivateIntegration,
  useIntegrationFetch,
} from '@platform/sdk/hooks';
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useIntegrationFetch', () => {
  it('passes through to globalThis.fetch outside a provider, as it is at call time', async () => {
    const { result } = renderHook(() => useIntegrationFetch());
    const fetch = vi.fn(async () => new Response('hi'));
    vi.stubGlobal('fetch', fetch);
    const response = await result.current('/api/x', { method: 'POST' });
    expect(await response.text()).toBe('hi');
    expect(fetch).toHaveBeenCalledWith('/api/x', { method: 'POST' });
  });

  it('gives the nearest provider’s fetch', () => {
    const outer = vi.fn();
    const inner = vi.fn();
    const { result } = renderHook(() => useIntegrationFetch(), {
      wrapper: ({ children }) => (
        <IntegrationFetchProvider fetch={outer}>
          <IntegrationFetchProvider fetch={inner}>{children}</IntegrationFetchProvider>
        </IntegrationFetchProvider>
      ),
    });
    expect(result.current).toBe(inner);
  });
});

describe('useActivationData', () => {
  it('is null outside a provider', () => {
    expect(renderHook(() => useActivationData()).result.current).toBeNull();
  });

  it('gives the provider’s data', () => {
    const { result } = renderHook(() => useActivationData<{ workspace: string }>(), {
      wrapper: ({ children }) => (
        <IntegrationActivationDataProvider data={{ workspace: 'w1' }}>
          {children}
        </IntegrationActivationDataProvider>
      ),
    });
    expect(result.current).toEqual({ workspace: 'w1' });
  });
});

describe('useActivateIntegration / useDeactivateIntegration', () => {
  it('reject with a clear error when no provider is mounted', async () => {
    const activate = renderHook(() => useActivateIntegration()).result.current;
    const deactivate = renderHook(() => useDeactivateIntegration()).result.current;
    await expect(activate({ workspace: 'w1' })).rejects.toBeInstanceOf(ActivationProviderMissingError);
    await expect(activate()).rejects.toThrow(
      /^useActivateIntegration\(\) found no IntegrationActivationProvider above this component/,
    );
    await expect(deactivate()).rejects.toThrow(
      /^useDeactivateIntegration\(\) found no IntegrationActivationProvider above this component.*<IntegrationActivationProvider activate=\{\.\.\.\} deactivate=\{\.\.\.\}>/,
    );
  });

  it('call the provider’s functions', async () => {
    const activate = vi.fn(async () => {});
    const deactivate = vi.fn(async () => {});
    const { result } = renderHook(
      () => ({ activate: useActivateIntegration(), deactivate: useDeactivateIntegration() }),
      {
        wrapper: ({ children }) => (
          <IntegrationActivationProvider activate={activate} deactivate={deactivate}>
            {children}
          </IntegrationActivationProvider>
        ),
      },
    );
    await result.current.activate({ workspace: 'w1' });
    await result.current.deactivate();
    expect(activate).toHaveBeenCalledWith({ workspace: 'w1' });
    expect(deactivate).toHaveBeenCalledTimes(1);
  });

  it('pass the provider’s rejection through', async () => {
    const failure = new Error('Activation refused by the host.');
    const { result } = renderHook(() => useActivateIntegration(), {
      wrapper: ({ children }) => (
        <IntegrationActivationProvider activate={() => Promise.reject(failure)} deactivate={async () => {}}>
          {children}
        </IntegrationActivationProvider>
      ),
    });
    await expect(result.current()).rejects.toBe(failure);
  });
});
