import { randomBytes } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSecret } from '../src/store/secrets.js';
import { startTestHost, type TestHost } from './_host.js';
import { captureLog } from './_logCapture.js';
import { type OAuthTestBed, startOAuthTestBed } from './fixtures/oauth/oauthTestBed.js';

// Each refusal an operator must be able to see as an attack: one warn line with
// `event: "security"`, its kind and who/where, and never a secret, signature, state or code.

describe('security event: webhook_forged', () => {
  const log = captureLog();
  const SECRET = 'gh-secret-never-logged';
  let host: TestHost;
  const post = (body: string, headers: Record<string, string> = {}) =>
    host.app.request(`/api/integrations/test-events/webhooks/github-push?accountId=${host.accountId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  beforeAll(async () => {
    host = await startTestHost({ logger: log.logger, projects: ['events'] });
    const sourceId = (await host.db.query("SELECT source_id FROM integrations WHERE slug = 'test-events'"))
      .rows[0]!.source_id as string;
    await writeSecret(host.db, host.services.secretBox, {
      scope: { slug: 'test-events', accountId: host.accountId, sourceId },
      tier: 'account',
      name: 'GITHUB_WEBHOOK_SECRET',
      value: SECRET,
    });
  });
  afterAll(() => host?.close());

  it('logs a refused signature with integration, webhook, account and reason, not the signature or body', async () => {
    const body = '{"id":"body-marker-7f3a","action":"opened"}';
    const signature = await githubSign('a-guessed-secret', body);
    log.clear();
    expect((await post(body, { 'X-Hub-Signature-256': signature })).status).toBe(401);
    expect((await post(body)).status).toBe(401);
    const events = log.security('webhook_forged');
    expect(events).toEqual([
      expect.objectContaining({
        level: 40,
        event: 'security',
        kind: 'webhook_forged',
        integration: 'test-events',
        webhookId: 'github-push',
        accountId: host.accountId,
        reason: 'mismatch',
      }),
      expect.objectContaining({ kind: 'webhook_forged', reason: 'missing_signature' }),
    ]);
    const text = log.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(signature.slice('sha256='.length));
    expect(text).not.toContain('body-marker-7f3a');
  });

  it('logs nothing for a delivery that verifies', async () => {
    const body = '{"id":"ok-1","action":"opened"}';
    log.clear();
    const response = await post(body, { 'X-Hub-Signature-256': await githubSign(SECRET, body) });
    expect(response.status).toBe(202);
    expect(log.security('webhook_forged')).toEqual([]);
  });
});

describe('security event: rate_limited', () => {
  it('logs the first refused call of a window with integration, account, user and the limit', async () => {
    const log = captureLog();
    const host = await startTestHost({
      logger: log.logger,
      limits: { ratePerUser: 2, ratePerAccount: 1000 },
      now: () => new Date('2026-11-21T12:00:30Z'),
    });
    try {
      const url = `/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`;
      const statuses = [];
      for (let call = 0; call < 5; call++) statuses.push((await host.call(url, { json: {} })).status);
      expect(statuses).toEqual([200, 200, 429, 429, 429]);
      // One line per limit and window, not one per refused call: a flood stays one line.
      expect(log.security('rate_limited')).toEqual([
        expect.objectContaining({
          level: 40,
          event: 'security',
          kind: 'rate_limited',
          integration: 'test-notes',
          accountId: host.accountId,
          userId: host.userId,
          limit: 'per_user',
          retryAfterSeconds: 30,
        }),
      ]);
      expect(log.text()).not.toContain(host.token);
    } finally {
      await host.close();
    }
  });

  it('names the per-account limit when that is the one exceeded', async () => {
    const log = captureLog();
    const host = await startTestHost({
      logger: log.logger,
      limits: { ratePerUser: 100, ratePerAccount: 1 },
      now: () => new Date('2026-11-21T12:00:30Z'),
    });
    try {
      const url = `/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`;
      expect((await host.call(url, { json: {} })).status).toBe(200);
      expect((await host.call(url, { json: {} })).status).toBe(429);
      expect(log.security('rate_limited')).toEqual([
        expect.objectContaining({ limit: 'per_account', accountId: host.accountId, userId: host.userId }),
      ]);
    } finally {
      await host.close();
    }
  });
});

describe('security event: oauth_state', () => {
  let bed: OAuthTestBed;
  const codesAndStates: string[] = [];
  beforeAll(async () => {
    bed = await startOAuthTestBed();
  }, 30_000);
  afterAll(() => bed?.close());

  const get = (path: string, headers: Record<string, string> = {}) => bed.host.app.request(path, { headers });
  const asSession = () => ({ cookie: `platform_session=${bed.session}` });
  let mark = 0;
  /** The oauth_state events logged since the last `mark = bed.logs.length`. */
  const events = () =>
    bed.logs
      .slice(mark)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.event === 'security' && entry.kind === 'oauth_state');

  /** Connect as the signed-in user and let the provider answer: the callback path with its code and state. */
  async function callback(): Promise<string> {
    const connect = await get(
      `/api/integrations/oauth-basic/oauth/connect?accountId=${bed.host.accountId}&returnPath=%2Fapps`,
      asSession(),
    );
    const back = await bed.server.authorize(connect.headers.get('location')!);
    codesAndStates.push(back.searchParams.get('code')!, back.searchParams.get('state')!);
    return `${back.pathname}${back.search}`;
  }

  it('logs an unknown or missing state (invalid)', async () => {
    const forged = randomBytes(32).toString('base64url');
    codesAndStates.push(forged, 'code-never-logged-1');
    mark = bed.logs.length;
    await get(
      `/api/integrations/oauth-basic/oauth/callback?code=code-never-logged-1&state=${forged}`,
      asSession(),
    );
    await get('/api/integrations/oauth-basic/oauth/callback?code=code-never-logged-1', asSession());
    expect(events()).toEqual([
      expect.objectContaining({
        level: 40,
        event: 'security',
        kind: 'oauth_state',
        integration: 'oauth-basic',
        outcome: 'invalid',
        reason: 'unknown',
      }),
      expect.objectContaining({ integration: 'oauth-basic', outcome: 'invalid', reason: 'missing' }),
    ]);
  });

  it('logs a callback brought back by another user or by nobody (unauthorized), then its replay (expired)', async () => {
    const other = await bed.host.addUser('admin');
    const path = await callback();
    mark = bed.logs.length;
    await get(path, { authorization: `Bearer ${other.token}` });
    await get(path, asSession());
    await get(await callback());
    expect(events()).toEqual([
      expect.objectContaining({
        kind: 'oauth_state',
        integration: 'oauth-basic',
        outcome: 'unauthorized',
        reason: 'other_user',
        accountId: bed.host.accountId,
        userId: other.userId,
        startedBy: bed.host.userId,
      }),
      expect.objectContaining({
        outcome: 'expired',
        reason: 'used',
        accountId: bed.host.accountId,
        startedBy: bed.host.userId,
      }),
      expect.objectContaining({ outcome: 'unauthorized', reason: 'not_signed_in' }),
    ]);
  });

  it('logs a state past its 10 minutes (expired)', async () => {
    const path = await callback();
    mark = bed.logs.length;
    try {
      bed.setClockOffset(10 * 60_000 + 1000);
      await get(path, asSession());
    } finally {
      bed.setClockOffset(0);
    }
    expect(events()).toEqual([
      expect.objectContaining({ outcome: 'expired', reason: 'expired', accountId: bed.host.accountId }),
    ]);
  });

  it('logs nothing for a completed connection, and never a state or code value', async () => {
    const path = await callback();
    mark = bed.logs.length;
    const done = await get(path, asSession());
    expect(done.headers.get('location')).toBe('/apps');
    expect(events()).toEqual([]);
    const everything = bed.logs.join('');
    for (const value of codesAndStates) expect(everything).not.toContain(value);
  });
});
