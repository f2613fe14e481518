import { access, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HarnessRegistryEntry } from '@platform/harness';
import type { LiveFetch } from '@platform/harness/api';
import { createEgressFetch } from '@platform/sdk/server';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, send, tempProject } from './_helpers.js';
import { API, acmeDefinition } from './_integration.js';
import { json, vendorServer } from './_vendorServer.js';

const fetches: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(fetches.splice(0).map((fetch) => fetch.close()));
});

function egressFetch(options: Parameters<typeof createEgressFetch>[0] = {}): LiveFetch {
  const fetch = createEgressFetch({ timeoutMs: 5000, ...options });
  fetches.push(fetch);
  return fetch;
}

const LIVE = { 'x-harness-mode': 'live' };
const action = (name: string) => `/api/integrations/acme-notes/actions/${name}`;

function liveEntry(origin: string): HarnessRegistryEntry {
  return {
    slug: 'acme-notes',
    name: 'Acme Notes',
    description: 'Notes',
    widgets: [],
    definition: acmeDefinition([API, origin]),
    live: {},
  };
}

/** A vendor echoing what reached it: method, path, query and the authorization header. */
async function echoVendor(tls: boolean) {
  return vendorServer(
    (request, response) => {
      json(response, {
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization ?? null,
      });
    },
    { tls },
  );
}

describe('harness live mode', () => {
  it('reaches a loopback HTTPS vendor through the egress fetch, with the token an action stored (account tier)', async () => {
    const vendor = await echoVendor(true);
    const { handlers } = await harness([liveEntry(vendor.origin)], {
      liveFetch: egressFetch({ allowLoopback: true, ca: vendor.ca! }),
    });
    const saved = await send(handlers, 'POST', action('save-token'), {
      body: { name: 'ACME_ACCESS_TOKEN', value: 'tok-123' },
      headers: LIVE,
    });
    expect(saved.body).toEqual({ ok: true, data: null });
    const answer = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: `${vendor.origin}/v1/notes?page=2` },
      headers: LIVE,
    });
    expect(answer.headers.get('x-harness-mode')).toBe('live');
    expect(answer.body).toEqual({
      ok: true,
      data: {
        status: 200,
        body: { method: 'GET', url: '/v1/notes?page=2', authorization: 'Bearer tok-123' },
      },
    });
  });

  it('reaches a loopback HTTP vendor too, and never answers it from fixtures', async () => {
    const vendor = await echoVendor(false);
    const entry = {
      ...liveEntry(vendor.origin),
      fixtures: { default: [{ request: `GET ${vendor.origin}/v1/notes`, response: { from: 'fixtures' } }] },
    };
    const { handlers } = await harness([entry], { liveFetch: egressFetch({ allowLoopback: true }) });
    const live = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: `${vendor.origin}/v1/notes` },
      headers: LIVE,
    });
    expect(live.body.data.body.url).toBe('/v1/notes');
    expect(vendor.requests).toHaveLength(1);
    const fixtures = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: `${vendor.origin}/v1/notes` },
    });
    expect(fixtures.body.data.body).toEqual({ from: 'fixtures' });
    expect(vendor.requests).toHaveLength(1);
  });

  it('refuses a private address without allowLoopback, logging one redacted line', async () => {
    const vendor = await echoVendor(false);
    const { handlers, lines } = await harness([liveEntry(vendor.origin)], { liveFetch: egressFetch() });
    const answer = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: `${vendor.origin}/v1/notes?token=s3cret` },
      headers: LIVE,
    });
    expect(answer.status).toBe(500);
    expect(answer.body.error.devError.message).toContain('is not a public address (loopback)');
    expect(vendor.requests).toHaveLength(0);
    const refusals = lines.filter((line) => line.includes('refused live'));
    expect(refusals).toEqual([expect.stringContaining(`refused live GET ${vendor.origin}/v1/notes?...`)]);
    expect(lines.join('\n')).not.toContain('s3cret');
  });

  it('refuses an origin outside egress before it reaches the network', async () => {
    const vendor = await echoVendor(false);
    const { handlers } = await harness([liveEntry(vendor.origin)], {
      liveFetch: egressFetch({ allowLoopback: true }),
    });
    const answer = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: 'http://127.0.0.1:9/elsewhere' },
      headers: LIVE,
    });
    expect(answer.status).toBe(500);
    expect(answer.body.error.devError.message).toContain("not in this integration's egress");
  });

  it('keeps storage and account secrets in .platform/live/store.json (0600, git-ignored), surviving a new handlers instance', async () => {
    const projectDir = await tempProject();
    const entry = liveEntry('https://unused.acme.test');
    const first = await harness([entry], { projectDir });
    await send(first.handlers, 'POST', action('add-note'), { body: { title: 'kept' }, headers: LIVE });
    await send(first.handlers, 'POST', action('set-sort'), { body: { sort: 'oldest' }, headers: LIVE });
    await send(first.handlers, 'POST', action('save-token'), {
      body: { name: 'ACME_ACCESS_TOKEN', value: 'tok' },
      headers: LIVE,
    });

    const file = join(projectDir, '.platform/live/store.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(join(projectDir, '.platform/live/.gitignore'), 'utf8')).toContain('\n*\n');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      version: 1,
      integrations: {
        'acme-notes': {
          storage: {
            account: { 'cache/notes': [{ id: 'n1', title: 'kept' }] },
            user: { preferences: { sort: 'oldest' } },
          },
          secrets: { account: { ACME_ACCESS_TOKEN: 'tok' } },
        },
      },
    });

    const second = await harness([entry], { projectDir });
    const read = await send(second.handlers, 'GET', '/api/integrations/acme-notes/storage?keys=cache/notes', {
      headers: LIVE,
    });
    expect(read.body.data['cache/notes']).toEqual([{ id: 'n1', title: 'kept' }]);
    const next = await send(second.handlers, 'POST', action('add-note'), {
      body: { title: 'again' },
      headers: LIVE,
    });
    expect(next.body.data.id).toBe('n2');
    // Fixtures mode never sees live state.
    const fixtures = await send(
      second.handlers,
      'GET',
      '/api/integrations/acme-notes/storage?keys=cache/notes',
    );
    expect(fixtures.body.data['cache/notes']).toBeNull();
  });

  it('serializes concurrent writes: no update is lost', async () => {
    const { handlers, projectDir } = await harness([liveEntry('https://unused.acme.test')]);
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        send(handlers, 'POST', action('save-token'), {
          body: { name: `TOKEN_${index}`, value: `v${index}` },
          headers: LIVE,
        }),
      ),
    );
    const stored = JSON.parse(await readFile(join(projectDir, '.platform/live/store.json'), 'utf8'));
    expect(Object.keys(stored.integrations['acme-notes'].secrets.account)).toHaveLength(10);
  });

  it('reads admin secrets from .platform/local-secrets.json and refuses to overwrite them from a handler', async () => {
    const vendor = await echoVendor(false);
    const { handlers } = await harness([liveEntry(vendor.origin)], {
      liveFetch: egressFetch({ allowLoopback: true }),
    });
    await send(handlers, 'POST', '/api/integrations/acme-notes/local-setup', {
      body: { secrets: { ACME_ACCESS_TOKEN: 'admin-token', ACME_CLIENT_SECRET: 'cs' } },
    });
    const answer = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: `${vendor.origin}/x` },
      headers: LIVE,
    });
    expect(answer.body.data.body.authorization).toBe('Bearer admin-token');
    const refused = await send(handlers, 'POST', action('save-token'), {
      body: { name: 'ACME_CLIENT_SECRET', value: 'mine' },
      headers: LIVE,
    });
    expect(refused.status).toBe(500);
    expect(refused.body.error.devError.message).toContain('admin-issued');
  });

  it('triggers a webhook with the local signing secret, and refuses when it is not set', async () => {
    const { handlers } = await harness([liveEntry('https://unused.acme.test')]);
    const trigger = () =>
      send(handlers, 'POST', '/api/integrations/acme-notes/triggers/webhooks/note-changed', {
        body: { payload: { type: 'note.created', note: { id: 'w', title: 'W' } } },
        headers: LIVE,
      });
    const missing = await trigger();
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('not_configured');
    expect(missing.body.error.message).toContain('ACME_WEBHOOK_SECRET');
    await send(handlers, 'POST', '/api/integrations/acme-notes/local-setup', {
      body: { secrets: { ACME_WEBHOOK_SECRET: 'whsec_live' } },
    });
    const delivered = await trigger();
    expect(delivered.body.data).toMatchObject({
      mode: 'live',
      result: { ok: true },
      signature: { verified: true, secret: { name: 'ACME_WEBHOOK_SECRET', source: 'live' } },
      storage: { before: { account: {} }, after: { account: { 'cache/notes': [{ id: 'w', title: 'W' }] } } },
    });
    const scheduled = await send(
      handlers,
      'POST',
      '/api/integrations/acme-notes/triggers/schedules/nightly-sync',
      {
        body: {},
        headers: LIVE,
      },
    );
    expect(scheduled.body.data.storage.after.account.sync_state).toEqual({ actor: 'machine', at: 'nightly' });
  });

  it('uses the sdk egress fetch by default, which refuses loopback addresses', async () => {
    const vendor = await echoVendor(false);
    const { handlers } = await harness([liveEntry(vendor.origin)]);
    const answer = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: `${vendor.origin}/v1/notes` },
      headers: LIVE,
    });
    expect(answer.body.error.devError.message).toContain('is not a public address (loopback)');
    expect(vendor.requests).toHaveLength(0);
  });
});

describe('harness recorder (live mode, x-harness-record: 1)', () => {
  it('writes answered hops as redacted fixtures that replay in fixtures mode', async () => {
    const vendor = await vendorServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://vendor');
      json(
        response,
        {
          page: url.searchParams.get('page'),
          seenAuthorization: request.headers.authorization ?? null,
          note: 'configured with client-secret-value',
          access_token: 'fresh-token-from-vendor',
        },
        200,
        { 'set-cookie': 'sid=cookie-value', 'x-request-id': 'r1' },
      );
    });
    const entry = liveEntry(vendor.origin);
    const { handlers, projectDir, lines } = await harness([entry], {
      liveFetch: egressFetch({ allowLoopback: true }),
    });
    await send(handlers, 'POST', '/api/integrations/acme-notes/local-setup', {
      body: { secrets: { ACME_CLIENT_SECRET: 'client-secret-value' } },
    });
    await send(handlers, 'POST', action('save-token'), {
      body: { name: 'ACME_ACCESS_TOKEN', value: 'account-token-value' },
      headers: LIVE,
    });
    const recorded = { ...LIVE, 'x-harness-record': '1' };
    const file = join(projectDir, 'harness-fixtures/acme-notes.recorded.ts');
    const fetchPage = (query: string, headers: Record<string, string>) =>
      send(handlers, 'POST', action('fetch-json'), {
        body: { url: `${vendor.origin}/v1/notes${query}` },
        headers,
      });

    await fetchPage('?page=1', LIVE);
    await expect(access(file)).rejects.toThrow();
    const live1 = await fetchPage('?page=1&limit=5&api_key=query-secret', recorded);
    const live2 = await fetchPage('?page=2&limit=5', recorded);
    await fetchPage('?page=2&limit=5', recorded);

    const text = await readFile(file, 'utf8');
    expect(text).not.toMatch(
      /account-token-value|client-secret-value|fresh-token-from-vendor|query-secret|cookie-value/,
    );
    expect(text).toContain('[redacted]');
    expect(lines.filter((line) => line.startsWith('[harness] recorded'))).toEqual([
      `[harness] recorded GET ${vendor.origin}/v1/notes?... -> 200 into harness-fixtures/acme-notes.recorded.ts`,
      `[harness] recorded GET ${vendor.origin}/v1/notes?... -> 200 into harness-fixtures/acme-notes.recorded.ts`,
      `[harness] recorded GET ${vendor.origin}/v1/notes?... -> 200 into harness-fixtures/acme-notes.recorded.ts`,
    ]);

    const { recordedFixtures } = await import(pathToFileURL(file).href);
    expect(recordedFixtures).toEqual([
      {
        request: `GET ${vendor.origin}/v1/notes?page=1`,
        response: {
          page: '1',
          seenAuthorization: '[redacted]',
          note: 'configured with [redacted]',
          access_token: '[redacted]',
        },
        headers: { 'x-request-id': 'r1' },
      },
      {
        request: `GET ${vendor.origin}/v1/notes?page=2`,
        response: {
          page: '2',
          seenAuthorization: '[redacted]',
          note: 'configured with [redacted]',
          access_token: '[redacted]',
        },
        headers: { 'x-request-id': 'r1' },
      },
    ]);

    // The partner imports them under a variant: the same calls now answer from fixtures, offline.
    const replay = await harness([{ ...entry, fixtures: { default: recordedFixtures } }]);
    const offline1 = await send(replay.handlers, 'POST', action('fetch-json'), {
      body: { url: `${vendor.origin}/v1/notes?page=1&limit=5` },
    });
    expect(offline1.body.data.body.page).toBe(live1.body.data.body.page);
    const offline2 = await send(replay.handlers, 'POST', action('fetch-json'), {
      body: { url: `${vendor.origin}/v1/notes?page=2` },
    });
    expect(offline2.body.data.body.page).toBe(live2.body.data.body.page);
    expect(vendor.requests).toHaveLength(4);
  });
});
