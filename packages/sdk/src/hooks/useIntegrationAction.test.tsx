// @vitest-environment happy-dom
import {
  IntegrationActionError,
  IntegrationFetchProvider,
  integrationActionUrl,
  isIntegrationActionError,
  useIntegrationAction,
} from '@platform/sdk/hooks';
import type { MockFetchHandler } from '@platform/sdk/testing';
import { createMockFetchProvider } from '@platform/sdk/testing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const ROUTE = 'POST /api/integrations/acme-notes/actions/create-note';

function renderAction(handlers: MockFetchHandler[]) {
  const mock = createMockFetchProvider({ handlers });
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <mock.Provider>{children}</mock.Provider>
    </QueryClientProvider>
  );
  const hook = renderHook(
    () =>
      useIntegrationAction<{ title: string }, { id: string }>('acme-notes', 'create-note', {
        accountId: 'acct 1',
      }),
    { wrapper },
  );
  return { mock, hook };
}

async function rejectionOf(handlers: MockFetchHandler[]): Promise<IntegrationActionError> {
  const { hook } = renderAction(handlers);
  let caught: unknown;
  await act(async () => {
    await hook.result.current.mutateAsync({ title: 'Hi' }).catch((error: unknown) => {
      caught = error;
    });
  });
  expect(caught).toBeInstanceOf(IntegrationActionError);
  await waitFor(() => expect(hook.result.current.isError).toBe(true));
  expect(hook.result.current.error).toBe(caught);
  return caught as IntegrationActionError;
}

const answer = (status: number, body: unknown) => () =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json' },
  });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('integrationActionUrl', () => {
  it('builds the same-origin actions route with the account as a query parameter', () => {
    expect(integrationActionUrl('acme-notes', 'create-note', { accountId: 'a1' })).toBe(
      '/api/integrations/acme-notes/actions/create-note?accountId=a1',
    );
    expect(integrationActionUrl('acme', 'a/b', { accountId: 'x&y=1' })).toBe(
      '/api/integrations/acme/actions/a%2Fb?accountId=x%26y%3D1',
    );
  });
});

describe('useIntegrationAction', () => {
  it('posts the input as JSON to the actions route and resolves with the envelope data', async () => {
    const { hook, mock } = renderAction([
      { match: ROUTE, respond: () => Response.json({ ok: true, data: { id: 'n1' } }) },
    ]);
    let data: unknown;
    await act(async () => {
      data = await hook.result.current.mutateAsync({ title: 'Hi' });
    });
    expect(data).toEqual({ id: 'n1' });
    await waitFor(() => expect(hook.result.current.data).toEqual({ id: 'n1' }));
    expect(mock.calls).toHaveLength(1);
    const [call] = mock.calls;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe(
      `${location.origin}/api/integrations/acme-notes/actions/create-note?accountId=acct+1`,
    );
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toBe('{"title":"Hi"}');
  });

  it('resolves with null data as sent', async () => {
    const { hook } = renderAction([{ match: ROUTE, respond: () => Response.json({ ok: true, data: null }) }]);
    await act(async () => {
      expect(await hook.result.current.mutateAsync({ title: 'Hi' })).toBeNull();
    });
  });

  it.each([
    ['action_not_found', 404, 'Unknown action "create-note".'],
    ['rate_limited', 429, 'Too many requests; retry in 30 seconds.'],
    ['conflict', 409, 'Another call changed the same stored data; retry the call.'],
    ['handler_error', 500, 'Action failed.'],
    // A PublicActionError with { status: 409 }: the widget can branch on the status.
    ['handler_error', 409, 'Connect Acme first.'],
  ])('rejects with %s and status %i as the route answered', async (code, status, message) => {
    const error = await rejectionOf([
      { match: ROUTE, respond: answer(status, { ok: false, error: { code, message } }) },
    ]);
    expect(error).toMatchObject({ name: 'IntegrationActionError', code, status, message });
    expect(error.issues).toBeUndefined();
    expect(isIntegrationActionError(error)).toBe(true);
  });

  it('rejects with invalid_input carrying the zod issues', async () => {
    const issues = [
      { code: 'too_small', path: ['title'], message: 'Too small: expected string to have >=1 characters' },
    ];
    const error = await rejectionOf([
      {
        match: ROUTE,
        respond: answer(400, { ok: false, error: { code: 'invalid_input', message: 'Bad input', issues } }),
      },
    ]);
    expect(error).toMatchObject({ code: 'invalid_input', status: 400, message: 'Bad input' });
    expect(error.issues).toEqual(issues);
  });

  it('keeps the harness devError on handler_error', async () => {
    const devError = { message: 'boom', stack: 'Error: boom\n    at handler' };
    const error = await rejectionOf([
      {
        match: ROUTE,
        respond: answer(500, {
          ok: false,
          error: { code: 'handler_error', message: 'Action failed.', devError },
        }),
      },
    ]);
    expect(error.devError).toEqual(devError);
  });

  it('passes through a code the route adds, such as an authorisation failure', async () => {
    const error = await rejectionOf([
      {
        match: ROUTE,
        respond: answer(403, {
          ok: false,
          error: { code: 'forbidden', message: 'Not a member of this account.' },
        }),
      },
    ]);
    expect(error).toMatchObject({ code: 'forbidden', status: 403, message: 'Not a member of this account.' });
  });

  it('rejects with network_error and status 0 when the request never reaches the server', async () => {
    const failure = new TypeError('Failed to fetch');
    const error = await rejectionOf([
      {
        match: ROUTE,
        respond: () => {
          throw failure;
        },
      },
    ]);
    expect(error.code).toBe('network_error');
    expect(error.status).toBe(0);
    expect(error.message).toContain('Action "create-note" of "acme-notes" never reached the server');
    expect(error.message).toContain('Failed to fetch');
    expect(error.cause).toBe(failure);
  });

  it.each([
    ['an HTML error page', 502, '<html><body>Bad gateway</body></html>', 'a body that is not JSON'],
    ['an empty body', 200, '', 'an empty body'],
    ['JSON that is not the envelope', 200, { id: 'n1' }, 'JSON that is not the envelope'],
    [
      'a success envelope under an error status',
      500,
      { ok: true, data: 1 },
      'a success envelope under an error status',
    ],
    ['ok: true without data', 200, { ok: true }, 'JSON that is not the envelope'],
    [
      'an error without a message',
      400,
      { ok: false, error: { code: 'invalid_input' } },
      'JSON that is not the envelope',
    ],
    [
      'issues that are not a list of issues',
      400,
      { ok: false, error: { code: 'invalid_input', message: 'x', issues: 'title' } },
      'JSON that is not the envelope',
    ],
  ])('rejects %s with invalid_response and the response status', async (_label, status, body, reason) => {
    const error = await rejectionOf([{ match: ROUTE, respond: answer(status, body) }]);
    expect(error.code).toBe('invalid_response');
    expect(error.status).toBe(status);
    expect(error.message).toContain(`answered HTTP ${status} with ${reason}`);
  });

  it('rejects input that cannot be sent as JSON with invalid_input, without a request', async () => {
    const mock = createMockFetchProvider();
    const client = new QueryClient();
    const { result } = renderHook(
      () => useIntegrationAction('acme-notes', 'create-note', { accountId: 'a1' }),
      {
        wrapper: ({ children }) => (
          <QueryClientProvider client={client}>
            <mock.Provider>{children}</mock.Provider>
          </QueryClientProvider>
        ),
      },
    );
    let caught: unknown;
    await act(async () => {
      await result.current.mutateAsync({ count: 1n }).catch((error: unknown) => {
        caught = error;
      });
    });
    expect(caught).toMatchObject({ name: 'IntegrationActionError', code: 'invalid_input', status: 0 });
    expect(mock.calls).toHaveLength(0);
  });

  it('uses the nearest IntegrationFetchProvider', async () => {
    const fetch = vi.fn(async () => Response.json({ ok: true, data: 'from provider' }));
    const client = new QueryClient();
    const { result } = renderHook(
      () => useIntegrationAction('acme-notes', 'create-note', { accountId: 'a1' }),
      {
        wrapper: ({ children }) => (
          <QueryClientProvider client={client}>
            <IntegrationFetchProvider fetch={fetch}>{children}</IntegrationFetchProvider>
          </QueryClientProvider>
        ),
      },
    );
    await act(async () => {
      expect(await result.current.mutateAsync({})).toBe('from provider');
    });
    expect(fetch).toHaveBeenCalledWith(
      '/api/integrations/acme-notes/actions/create-note?accountId=a1',
      expect.objectContaining({ method: 'POST', body: '{}' }),
    );
  });

  it('falls back to globalThis.fetch outside a provider', async () => {
    const fetch = vi.fn(async () => Response.json({ ok: true, data: 'from global' }));
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient();
    const { result } = renderHook(
      () => useIntegrationAction('acme-notes', 'create-note', { accountId: 'a1' }),
      {
        wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
      },
    );
    await act(async () => {
      expect(await result.current.mutateAsync({})).toBe('from global');
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
