import { fetchIntegrationStorage, IntegrationRequestError } from '@platform/sdk/hooks';
import { createMockFetchProvider } from '@platform/sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';

const STORAGE = 'GET /api/integrations/acme-notes/storage';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchIntegrationStorage', () => {
  it('reads the keys through the storage route as an object indexed by key', async () => {
    const mock = createMockFetchProvider({
      handlers: [
        {
          match: STORAGE,
          respond: () =>
            Response.json({ ok: true, data: { settings: { workspace: 'w1' }, 'cache/notes': null } }),
        },
      ],
    });
    const values = await fetchIntegrationStorage('acme-notes', {
      accountId: 'a1',
      keys: ['settings', 'cache/notes'],
      fetch: mock.fetch,
    });
    expect(values).toEqual({ settings: { workspace: 'w1' }, 'cache/notes': null });
    const url = new URL(mock.calls[0]!.url);
    expect(mock.calls[0]!.method).toBe('GET');
    expect(url.pathname).toBe('/api/integrations/acme-notes/storage');
    expect(url.searchParams.get('accountId')).toBe('a1');
    expect(url.searchParams.get('keys')).toBe('settings,cache/notes');
    expect(url.searchParams.has('scope')).toBe(false);
  });

  it('sends the scope when asked, and answers null for a key the route left out', async () => {
    const mock = createMockFetchProvider({
      handlers: [{ match: `${STORAGE}?scope=user`, respond: () => Response.json({ ok: true, data: {} }) }],
    });
    const values = await fetchIntegrationStorage('acme-notes', {
      accountId: 'a1',
      keys: ['preferences'],
      scope: 'user',
      fetch: mock.fetch,
    });
    expect(values).toEqual({ preferences: null });
  });

  it('uses globalThis.fetch by default', async () => {
    const fetch = vi.fn(async () => Response.json({ ok: true, data: { settings: 1 } }));
    vi.stubGlobal('fetch', fetch);
    expect(await fetchIntegrationStorage('acme-notes', { accountId: 'a1', keys: ['settings'] })).toEqual({
      settings: 1,
    });
    expect(fetch).toHaveBeenCalledWith(
      '/api/integrations/acme-notes/storage?accountId=a1&keys=settings',
      expect.objectContaining({ method: 'GET' }),
    );
  });

  it('rejects with the route’s invalid_input for an undeclared key', async () => {
    const mock = createMockFetchProvider({
      handlers: [
        {
          match: STORAGE,
          respond: () =>
            Response.json(
              {
                ok: false,
                error: { code: 'invalid_input', message: 'Storage key "activation" is not declared.' },
              },
              { status: 400 },
            ),
        },
      ],
    });
    const rejection = fetchIntegrationStorage('acme-notes', {
      accountId: 'a1',
      keys: ['activation'],
      fetch: mock.fetch,
    });
    await expect(rejection).rejects.toBeInstanceOf(IntegrationRequestError);
    await expect(rejection).rejects.toMatchObject({
      code: 'invalid_input',
      status: 400,
      message: 'Storage key "activation" is not declared.',
    });
  });

  it('refuses a malformed key before any request, since keys travel comma-joined', async () => {
    const mock = createMockFetchProvider();
    await expect(
      fetchIntegrationStorage('acme-notes', {
        accountId: 'a1',
        keys: ['settings,cache', 'Bad'],
        fetch: mock.fetch,
      }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      status: 0,
      message: expect.stringContaining('"settings,cache", "Bad" are not storage keys'),
    });
    expect(mock.calls).toHaveLength(0);
  });

  it('asks nothing for no keys', async () => {
    const mock = createMockFetchProvider();
    expect(
      await fetchIntegrationStorage('acme-notes', { accountId: 'a1', keys: [], fetch: mock.fetch }),
    ).toEqual({});
    expect(mock.calls).toHaveLength(0);
  });

  it('rejects with network_error and invalid_response like the action hook', async () => {
    const offline = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(
      fetchIntegrationStorage('acme-notes', { accountId: 'a1', keys: ['settings'], fetch: offline }),
    ).rejects.toMatchObject({ code: 'network_error', status: 0 });

    const listData = vi.fn(async () => Response.json({ ok: true, data: ['settings'] }));
    await expect(
      fetchIntegrationStorage('acme-notes', { accountId: 'a1', keys: ['settings'], fetch: listData }),
    ).rejects.toMatchObject({ code: 'invalid_response', status: 200 });

    const html = vi.fn(async () => new Response('<html></html>', { status: 503 }));
    await expect(
      fetchIntegrationStorage('acme-notes', { accountId: 'a1', keys: ['settings'], fetch: html }),
    ).rejects.toMatchObject({ code: 'invalid_response', status: 503 });
  });
});
