import { createHostApp } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSecret, writeSecret } from '../src/store/secrets.js';
import { readStorage } from '../src/store/storage.js';
import { startTestHost, type TestHost } from './_host.js';

const logs: string[] = [];
let host: TestHost;
const action = (name: string, accountId = host.accountId) =>
  `/api/integrations/test-notes/actions/${name}?accountId=${accountId}`;

beforeAll(async () => {
  host = await startTestHost({
    logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }),
    // Long enough for a cold isolate on a loaded machine; the time-limit test waits past it.
    limits: { actionTimeoutMs: 5000 },
  });
});
afterAll(() => host.close());

describe('actions route: success', () => {
  it('runs the action and answers the envelope, persisting its storage writes', async () => {
    const response = await host.call(action('add-note'), { json: { title: 'First' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, data: { id: 'n1', title: 'First' } });
    const listed = await host.call(action('list-notes'), { json: {} });
    expect(await listed.json()).toEqual({ ok: true, data: [{ id: 'n1', title: 'First' }] });
  });

  it('writes user storage under the calling user only', async () => {
    expect((await host.call(action('set-preferences'), { json: { sort: 'desc' } })).status).toBe(200);
    const mine = await readStorage(
      host.db,
      { slug: 'test-notes', accountId: host.accountId, scope: 'user', userId: host.userId },
      ['preferences'],
    );
    expect(mine.get('preferences')).toEqual({ sort: 'desc' });
    const other = await host.addUser('member');
    const theirs = await readStorage(
      host.db,
      { slug: 'test-notes', accountId: host.accountId, scope: 'user', userId: other.userId },
      ['preferences'],
    );
    expect(theirs.size).toBe(0);
  });
});

describe('actions route: who may call', () => {
  it('answers 401 unauthorized without credentials or with an unknown token', async () => {
    const anonymous = await host.app.request(action('list-notes'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const forged = await host.call(action('list-notes'), {
      json: {},
      headers: { authorization: 'Bearer plt_forged' },
    });
    expect(forged.status).toBe(401);
  });

  it('answers 403 forbidden for a user who is not a member of the account', async () => {
    const outsider = await host.addUser('member', { member: false });
    const response = await host.call(action('list-notes'), {
      json: {},
      headers: { authorization: `Bearer ${outsider.token}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('answers 400 without accountId, 404 for an unknown integration, 403 when not activated', async () => {
    const noAccount = await host.call('/api/integrations/test-notes/actions/list-notes', { json: {} });
    expect(noAccount.status).toBe(400);
    expect(await noAccount.json()).toMatchObject({ error: { code: 'invalid_request' } });
    const unknown = await host.call(`/api/integrations/nope/actions/x?accountId=${host.accountId}`, {
      json: {},
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'integration_not_found' } });
    await host.call(`/api/integrations/test-notes/activation?accountId=${host.accountId}`, {
      method: 'DELETE',
    });
    const inactive = await host.call(action('list-notes'), { json: {} });
    expect(inactive.status).toBe(403);
    expect(await inactive.json()).toMatchObject({ error: { code: 'not_activated' } });
    expect(
      (await host.call(`/api/integrations/test-notes/activation?accountId=${host.accountId}`, { json: {} }))
        .status,
    ).toBe(201);
  });

  it('refuses a cross-origin browser request and a body not declared as JSON', async () => {
    const crossSite = await host.call(action('list-notes'), {
      json: {},
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    const form = await host.call(action('list-notes'), {
      method: 'POST',
      body: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
  });
});

describe('actions route: the spec rules', () => {
  it('1. answers action_not_found (404) for an unknown action', async () => {
    const response = await host.call(action('delete-everything'), { json: {} });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'action_not_found' } });
  });

  it('2. answers invalid_input (400) with issues for a body that is not JSON or fails input', async () => {
    const notJson = await host.call(action('add-note'), {
      method: 'POST',
      body: '{title',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', issues: [{ code: 'invalid_json' }] },
    });
    const bad = await host.call(action('add-note'), { json: { title: '' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'invalid_input', issues: [{ path: ['title'], code: 'too_small' }] },
    });
  });

  it('3. answers handler_error "Action failed." for a throw, never devError, and logs it redacted', async () => {
    const response = await host.call(action('private-fail'), { json: {} });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Action failed.' },
    });
    const logged = logs.join('\n');
    expect(logged).toContain('action \\"private-fail\\" failed');
    expect(logged).not.toContain('hunter2');
  });

  it('3. returns a PublicActionError message verbatim in production, under 400 by default', async () => {
    const response = await host.call(action('public-fail'), { json: {} });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      ok: false,
      error: {
        code: 'handler_error',
        message: 'The notes service is in maintenance. Try again in 5 minutes.',
      },
    });
  });

  it("3. answers a PublicActionError's own 4xx status, the message verbatim under handler_error", async () => {
    const response = await host.call(action('connect-first'), { json: {} });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Connect your notes account first.' },
    });
  });

  it('3. answers handler_error when the result fails output', async () => {
    const response = await host.call(action('bad-output'), { json: {} });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Action failed.' },
    });
  });

  it('keeps nothing from a handler that throws after writing storage and secrets', async () => {
    const before = await host.call(action('list-notes'), { json: {} });
    const response = await host.call(action('write-then-fail'), { json: {} });
    expect(response.status).toBe(500);
    const after = await host.call(action('list-notes'), { json: {} });
    expect(await after.json()).toEqual(await before.json());
    const secret = await readSecret(
      host.db,
      host.services.secretBox,
      { slug: 'test-notes', accountId: host.accountId, sourceId: '' },
      'PARTIAL_TOKEN',
    );
    expect(secret).toBeUndefined();
  });

  it('ends a handler past its time limit with handler_error and drops its late writes', async () => {
    const response = await host.call(action('slow'), { json: { ms: 6000 } });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Action failed.' },
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const settings = await readStorage(
      host.db,
      { slug: 'test-notes', accountId: host.accountId, scope: 'account', userId: '' },
      ['settings'],
    );
    expect(settings.get('settings')).not.toEqual({ prefix: 'late' });
  });

  it('answers 413 payload_too_large for a body over the limit', async () => {
    const body = JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) });
    const response = await host.call(action('add-note'), {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'payload_too_large' } });
  });
});

describe('actions route: secrets and egress are enforced by the host', () => {
  it('resolves secrets account, then source, then global', async () => {
    const version = (
      await host.db.query<{ source_id: string }>(
        "SELECT source_id FROM integrations WHERE slug = 'test-notes'",
      )
    ).rows[0]!;
    const scope = { slug: 'test-notes', accountId: host.accountId, sourceId: version.source_id };
    await writeSecret(host.db, host.services.secretBox, {
      scope,
      tier: 'global',
      name: 'API_KEY',
      value: 'global-value',
    });
    const read = async () =>
      (
        (await (await host.call(action('read-secret'), { json: { name: 'API_KEY' } })).json()) as {
          data: { value: string };
        }
      ).data.value;
    expect(await read()).toBe('global-value');
    await writeSecret(host.db, host.services.secretBox, {
      scope,
      tier: 'source',
      name: 'API_KEY',
      value: 'source-value',
    });
    expect(await read()).toBe('source-value');
    await writeSecret(host.db, host.services.secretBox, {
      scope,
      tier: 'account',
      name: 'API_KEY',
      value: 'account-value',
    });
    expect(await read()).toBe('account-value');
    const stored = await host.db.query<{ ciphertext: string }>(
      "SELECT ciphertext FROM secrets WHERE name = 'API_KEY'",
    );
    expect(stored.rows.map((row) => row.ciphertext).join()).not.toMatch(/value/);
  });

  it('refuses ctx.secrets.set on a name that exists only in admin tiers', async () => {
    const version = (
      await host.db.query<{ source_id: string }>(
        "SELECT source_id FROM integrations WHERE slug = 'test-notes'",
      )
    ).rows[0]!;
    await writeSecret(host.db, host.services.secretBox, {
      scope: { slug: 'test-notes', accountId: host.accountId, sourceId: version.source_id },
      tier: 'global',
      name: 'CLIENT_SECRET',
      value: 'admin-issued',
    });
    const refused = await host.call(action('write-secret'), {
      json: { name: 'CLIENT_SECRET', value: 'overwrite' },
    });
    expect(refused.status).toBe(500);
    expect(logs.join('\n')).toContain('SecretAccessError');
    const saved = await host.call(action('write-secret'), { json: { name: 'MY_TOKEN', value: 't' } });
    expect(await saved.json()).toEqual({ ok: true, data: { saved: true } });
  });

  it('refuses ctx.fetch outside egress', async () => {
    const response = await host.call(action('fetch-outside'), {
      json: { url: 'https://evil.example/steal?k=1' },
    });
    expect(response.status).toBe(500);
    expect(logs.join('\n')).toContain('EgressDeniedError');
    expect(logs.join('\n')).not.toContain('k=1');
  });
});

describe('actions route: rate limits shared across host instances', () => {
  it('answers 429 rate_limited with Retry-After past the per-user limit, counted across two apps on one database', async () => {
    const limited = await startTestHost({
      logger: pino({ level: 'silent' }),
      limits: { ratePerUser: 3, ratePerAccount: 1000 },
      now: () => new Date('2026-11-21T12:00:30Z'),
    });
    try {
      const second = createHostApp(limited.services);
      const call = (app: typeof second) =>
        app.request(`/api/integrations/test-notes/actions/list-notes?accountId=${limited.accountId}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${limited.token}`, 'content-type': 'application/json' },
          body: '{}',
        });
      expect((await call(limited.app)).status).toBe(200);
      expect((await call(second)).status).toBe(200);
      expect((await call(limited.app)).status).toBe(200);
      const refused = await call(second);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    } finally {
      await limited.close();
    }
  });

  it('applies the per-account limit across users', async () => {
    const limited = await startTestHost({
      logger: pino({ level: 'silent' }),
      limits: { ratePerUser: 100, ratePerAccount: 2 },
      now: () => new Date('2026-11-21T12:00:30Z'),
    });
    try {
      const other = await limited.addUser('member');
      const url = `/api/integrations/test-notes/actions/list-notes?accountId=${limited.accountId}`;
      expect((await limited.call(url, { json: {} })).status).toBe(200);
      expect(
        (await limited.call(url, { json: {}, headers: { authorization: `Bearer ${other.token}` } })).status,
      ).toBe(200);
      expect((await limited.call(url, { json: {} })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
