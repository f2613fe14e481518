// @vitest-environment happy-dom
import type { HarnessRegistryEntry } from '@platform/harness';
import { HarnessToolbarProvider, useHarnessFetch, useHarnessToolbar } from '@platform/harness/hooks';
import type { FetchFunction } from '@platform/sdk/hooks';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

const entry: HarnessRegistryEntry = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: '',
  widgets: [],
  live: { egress: ['https://api.acme.com'] },
  fixtures: {
    default: [{ request: 'GET /v1/notes', response: ['default'] }],
    empty: [{ request: 'GET /v1/notes', response: [] }],
    error: [{ request: 'GET /v1/notes', response: { error: 'down' }, status: 503 }],
  },
};

const wrapper = ({ children }: { children: ReactNode }) => (
  <HarnessToolbarProvider>{children}</HarnessToolbarProvider>
);

describe('useHarnessFetch', () => {
  it('answers under the toolbar of the nearest provider and follows it', async () => {
    const network = vi.fn<FetchFunction>(async () => new Response('network'));
    const { result } = renderHook(
      () => ({ toolbar: useHarnessToolbar(), fetch: useHarnessFetch(entry, { fetch: network }) }),
      { wrapper },
    );
    expect(await (await result.current.fetch('https://api.acme.com/v1/notes')).json()).toEqual(['default']);
    act(() => result.current.toolbar.setVariant('error'));
    expect((await result.current.fetch('https://api.acme.com/v1/notes')).status).toBe(503);
    act(() => result.current.toolbar.setMode('live'));
    expect(await (await result.current.fetch('https://api.acme.com/v1/notes')).text()).toBe('network');
    // Same-origin, against the page's own origin by default.
    await result.current.fetch(`/api/integrations/acme-notes/storage`);
    const sent = network.mock.lastCall?.[0] as Request;
    expect(sent.url).toBe(`${location.origin}/api/integrations/acme-notes/storage`);
  });

  it('throws while rendering when the active variant has a path-only fixture it cannot resolve', () => {
    const broken: HarnessRegistryEntry = { ...entry, live: { egress: [] } };
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useHarnessFetch(broken), { wrapper })).toThrow(
      /needs exactly one egress origin/,
    );
    consoleError.mockRestore();
  });
});
