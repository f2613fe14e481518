// @vitest-environment happy-dom
import { useIntegrationFetch } from '@platform/sdk/hooks';
import { NoRecordedResponseError } from '@platform/sdk/integration';
import { createMockFetchProvider } from '@platform/sdk/testing';
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

describe('createMockFetchProvider', () => {
  it('answers useIntegrationFetch() below its Provider from the handlers and records the calls', async () => {
    const mock = createMockFetchProvider({
      handlers: [
        {
          match: 'GET /api/integrations/acme-notes/storage',
          respond: () => Response.json({ ok: true, data: {} }),
        },
        {
          match: 'POST /api/integrations/acme-notes/actions/:name',
          respond: async (request) => Response.json({ ok: true, data: await request.json() }),
        },
      ],
    });
    const { result } = renderHook(() => useIntegrationFetch(), { wrapper: mock.Provider });
    expect(result.current).toBe(mock.fetch);

    const read = await result.current('/api/integrations/acme-notes/storage?accountId=a1&keys=settings');
    expect(await read.json()).toEqual({ ok: true, data: {} });
    const posted = await result.current('/api/integrations/acme-notes/actions/create-note', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"Hi"}',
    });
    expect(await posted.json()).toEqual({ ok: true, data: { title: 'Hi' } });

    expect(mock.calls.map((call) => [call.method, new URL(call.url).pathname, call.body])).toEqual([
      ['GET', '/api/integrations/acme-notes/storage', null],
      ['POST', '/api/integrations/acme-notes/actions/create-note', '{"title":"Hi"}'],
    ]);
    expect(mock.calls[1]?.headers['content-type']).toBe('application/json');
  });

  it('refuses an unmatched request without sending it, and says how to answer it', async () => {
    const mock = createMockFetchProvider({
      handlers: [{ match: 'GET /api/integrations/acme-notes/storage', respond: () => Response.json({}) }],
    });
    const rejection = mock.fetch('/api/integrations/acme-notes/actions/delete-note?accountId=a1', {
      method: 'POST',
    });
    await expect(rejection).rejects.toBeInstanceOf(NoRecordedResponseError);
    await expect(rejection).rejects.toThrow(
      `No recorded response for POST ${location.origin}/api/integrations/acme-notes/actions/delete-note?... ; the request was refused, not sent.`.replace(
        ' ;',
        ';',
      ),
    );
    await expect(rejection).rejects.toThrow(
      "{ match: 'POST /api/integrations/acme-notes/actions/delete-note'",
    );
    expect(mock.calls).toHaveLength(1);
  });

  it('refuses everything without handlers', async () => {
    await expect(createMockFetchProvider().fetch('/anything')).rejects.toBeInstanceOf(
      NoRecordedResponseError,
    );
  });
});
