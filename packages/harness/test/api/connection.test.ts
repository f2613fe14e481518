import type { HarnessRegistryEntry } from '@platform/harness';
import type { LiveFetch } from '@platform/harness/api';
import { defineIntegration } from '@platform/sdk/integration';
import { createEgressFetch } from '@platform/sdk/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, send } from './_helpers.js';
import { json, vendorServer } from './_vendorServer.js';

const fetches: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(fetches.splice(0).map((fetch) => fetch.close()));
});
function egressFetch(ca: string): LiveFetch {
  const fetch = createEgressFetch({ timeoutMs: 5000, allowLoopback: true, ca });
  fetches.push(fetch);
  return fetch;
}

const LIVE = { 'x-harness-mode': 'live' };

function keyEntry(origin: string): HarnessRegistryEntry {
  return {
    slug: 'acme-keys',
    name: 'Acme Keys',
    description: 'An API-key vendor',
    widgets: [],
    definition: defineIntegration({
      slug: 'acme-keys',
      egress: [origin],
      connection: {
        kind: 'apiKey',
        fields: [{ name: 'apiKey', label: 'API key', secret: true }],
        header: 'Bearer {apiKey}',
        verify: { method: 'GET', url: `${origin}/v1/me` },
        authorization: { origins: [origin] },
      },
      actions: {
        whoami: {
          description: 'Asks the vendor',
          input: z.object({}),
          handler: async (ctx) => {
            const response = await ctx.fetch(`${origin}/v1/me`);
            return { status: response.status, body: (await response.json()) as unknown };
          },
        },
      },
    }),
    live: {},
  };
}

async function put(
  handlers: { fetch: (request: Request) => Promise<Response> },
  fields: unknown,
  headers: Record<string, string> = LIVE,
) {
  const response = await handlers.fetch(
    new Request('http://localhost:5173/api/integrations/acme-keys/connection', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ fields }),
    }),
  );
  return { status: response.status, body: await response.json() };
}

describe('harness connection route (apiKey)', () => {
  it('verifies in live mode, stores only on 2xx, and ctx.fetch then carries the header', async () => {
    const vendor = await vendorServer(
      (request, response) =>
        request.headers.authorization === 'Bearer good-key'
          ? json(response, { user: 'bot', authorization: request.headers.authorization })
          : json(response, { error: 'bad key' }, 401),
      { tls: true },
    );
    const { handlers, lines } = await harness([keyEntry(vendor.origin)], {
      liveFetch: egressFetch(vendor.ca!),
    });

    const before = await send(handlers, 'GET', '/api/integrations/acme-keys/connection', { headers: LIVE });
    expect(before.body).toEqual({
      ok: true,
      data: {
        kind: 'apiKey',
        connected: false,
        fields: [{ name: 'apiKey', label: 'API key', secret: true, set: false }],
      },
    });
    expect((await put(handlers, { apiKey: 'good-key' }, {})).status).toBe(400); // fixtures mode

    const refused = await put(handlers, { apiKey: 'bad-key' });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'verify_failed', status: 401 });
    expect(
      (await send(handlers, 'GET', '/api/integrations/acme-keys/connection', { headers: LIVE })).body.data
        .connected,
    ).toBe(false);

    const saved = await put(handlers, { apiKey: 'good-key' });
    expect(saved.body.data.connected).toBe(true);
    const called = await send(handlers, 'POST', '/api/integrations/acme-keys/actions/whoami', {
      body: {},
      headers: LIVE,
    });
    expect(called.body).toEqual({
      ok: true,
      data: { status: 200, body: { user: 'bot', authorization: 'Bearer good-key' } },
    });
    expect(lines.join('\n')).not.toContain('good-key');
    expect(lines.join('\n')).not.toContain('bad-key');
  });
});
