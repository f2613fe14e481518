import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationHealth } from '../src/events/integrationHealth.js';
import { CLIENTS, type OAuthTestBed, startOAuthTestBed } from './fixtures/oauth/oauthTestBed.js';
import { connectThroughProvider, refreshHelpers } from './fixtures/oauth/refreshHelpers.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The provider's access token lifetime here: 20 minutes, so a connection is due 5 minutes after it connects. */
const TTL_S = 20 * 60;

/** A refresh grant for the basic client sent straight to the provider, not through the host: its status. */
function spendRefreshToken(bed: OAuthTestBed, refreshToken: string): Promise<number> {
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString();
  const basic = `${encodeURIComponent(CLIENTS.basic.clientId)}:${new URLSearchParams([['', CLIENTS.basic.clientSecret]]).toString().slice(1)}`;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${bed.server.origin}/token`,
      {
        method: 'POST',
        ca: bed.server.ca,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(basic).toString('base64')}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// Host-driven refresh (issue 51) against the real authorization server (oidc-provider): the token
// set kept at connect, refresh before expiry through the scheduler and the job worker, on a 401
// through ctx.fetch, single flight, rotation on and off, backoff, exhaustion and recovery.
describe('OAuth refresh against a real authorization server', () => {
  let bed: OAuthTestBed;
  let h: ReturnType<typeof refreshHelpers>;

  beforeAll(async () => {
    bed = await startOAuthTestBed({
      accessTokenTtl: TTL_S,
      host: { oauthRefresh: { providerTimeoutMs: 5000 } },
    });
    h = refreshHelpers(bed);
  }, 60_000);
  afterAll(() => bed?.close());

  it('keeps the token set encrypted on the connection and reports it healthy with its next refresh', async () => {
    const before = Date.now();
    await connectThroughProvider(bed, 'oauth-basic');
    const issued = bed.server.tokenResponses.at(-1)!;
    const kept = await h.tokens('oauth-basic');
    expect(kept).toMatchObject({ accessToken: issued.access_token, refreshToken: issued.refresh_token });
    const { rows } = await bed.host.db.query(
      "SELECT tokens FROM oauth_connections WHERE integration_slug = 'oauth-basic'",
    );
    expect(String(rows[0]!.tokens)).not.toContain(String(issued.access_token));
    expect(String(rows[0]!.tokens)).not.toContain(String(issued.refresh_token));

    const { health } = await h.status('oauth-basic');
    expect(health).toMatchObject({ state: 'healthy', lastFailure: null, failingDays: 0 });
    const next = Date.parse(health.nextRefreshAt);
    expect(next).toBeGreaterThanOrEqual(before + TTL_S * 1000 - 15 * MINUTE - 2000);
    expect(next).toBeLessThanOrEqual(Date.now() + TTL_S * 1000 - 15 * MINUTE + 2000);
  });

  it('refreshes before expiry through the scheduler tick and the job worker, and runs onTokens', async () => {
    const old = (await h.tokens('oauth-basic'))!;
    const grants = h.refreshGrants().length;
    // Not due yet: the sweep queues nothing.
    await bed.host.events.scheduler.tick();
    await bed.host.events.worker.drain();
    expect(h.refreshGrants()).toHaveLength(grants);

    bed.setClockOffset(6 * MINUTE);
    await bed.host.events.scheduler.tick();
    await bed.host.events.worker.drain();
    expect(h.refreshGrants()).toHaveLength(grants + 1);
    const grant = h.refreshGrants().at(-1)!;
    expect(grant).toMatchObject({ status: 200, params: { refresh_token: old.refreshToken } });
    expect(grant.authorization).toMatch(/^Basic /);

    const kept = (await h.tokens('oauth-basic'))!;
    const issued = bed.server.tokenResponses.at(-1)!;
    expect(kept.accessToken).toBe(issued.access_token);
    expect(kept.accessToken).not.toBe(old.accessToken);
    // Rotation on (the server's default): the newest refresh token is the one kept.
    expect(kept.refreshToken).toBe(issued.refresh_token);
    expect(kept.refreshToken).not.toBe(old.refreshToken);
    // onTokens ran, so the handler's own copy is the new token.
    expect(await h.partnerSecret('oauth-basic', 'ACCESS_TOKEN')).toBe(kept.accessToken);
    expect(await h.partnerSecret('oauth-basic', 'REFRESH_TOKEN')).toBe(kept.refreshToken);
    const { health } = await h.status('oauth-basic');
    expect(health.state).toBe('healthy');
    expect(Date.parse(health.lastSuccessAt)).toBeGreaterThan(Date.now());

    // The same tick again: the job already ran for that due time, and the new expiry is not near.
    await bed.host.events.scheduler.tick();
    await bed.host.events.worker.drain();
    expect(h.refreshGrants()).toHaveLength(grants + 1);

    // A second rotation works: the provider would refuse the rotated-away token (reuse detection).
    bed.setClockOffset(12 * MINUTE);
    expect((await h.refresh('oauth-basic')).status).toBe('refreshed');
    expect(h.refreshGrants().at(-1)!.status).toBe(200);
  });

  it('refreshes once when asked twice at once: the second re-reads under the lock and skips', async () => {
    bed.setClockOffset(18 * MINUTE);
    const grants = h.refreshGrants().length;
    const outcomes = await Promise.all([h.refresh('oauth-basic'), h.refresh('oauth-basic')]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['refreshed', 'skipped']);
    expect(h.refreshGrants()).toHaveLength(grants + 1);
    const [first, second] = outcomes;
    const tokenOf = (outcome: (typeof outcomes)[number]) =>
      'tokens' in outcome ? outcome.tokens.accessToken : undefined;
    expect(tokenOf(first!)).toBe(tokenOf(second!));
  });

  it('refreshes on a 401 through ctx.fetch and retries the call once with the new token', async () => {
    bed.setClockOffset(19 * MINUTE);
    const old = (await h.tokens('oauth-basic'))!;
    expect(await h.whoami('oauth-basic')).toEqual({ status: 200, body: { sub: 'alice' } });
    await bed.server.revokeAccessToken(old.accessToken);
    const grants = h.refreshGrants().length;
    const seen = bed.server.resourceRequests.length;

    expect(await h.whoami('oauth-basic')).toEqual({ status: 200, body: { sub: 'alice' } });
    expect(h.refreshGrants()).toHaveLength(grants + 1);
    const kept = (await h.tokens('oauth-basic'))!;
    expect(bed.server.resourceRequests.slice(seen)).toEqual([
      { token: old.accessToken, status: 401 },
      { token: kept.accessToken, status: 200 },
    ]);
    // onTokens saved the new one: the next call sends it at once.
    expect(await h.whoami('oauth-basic')).toEqual({ status: 200, body: { sub: 'alice' } });
    expect(bed.server.resourceRequests.at(-1)).toEqual({ token: kept.accessToken, status: 200 });
    expect(h.refreshGrants()).toHaveLength(grants + 1);
  });

  it('keeps the old refresh token when the provider answers without one', async () => {
    await connectThroughProvider(bed, 'oauth-post');
    bed.server.rotateRefreshToken = false;
    bed.server.omitRefreshToken = true;
    try {
      const old = (await h.tokens('oauth-post'))!;
      bed.setClockOffset(25 * MINUTE);
      expect((await h.refresh('oauth-post')).status).toBe('refreshed');
      const grant = h.refreshGrants().at(-1)!;
      expect(grant.params).toMatchObject({ client_id: 'post-client', refresh_token: old.refreshToken });
      const kept = (await h.tokens('oauth-post'))!;
      expect(kept.accessToken).not.toBe(old.accessToken);
      expect(kept.refreshToken).toBe(old.refreshToken);
      // ... and it still works.
      bed.setClockOffset(45 * MINUTE);
      expect((await h.refresh('oauth-post')).status).toBe('refreshed');
      expect((await h.tokens('oauth-post'))!.refreshToken).toBe(old.refreshToken);
    } finally {
      bed.server.rotateRefreshToken = true;
      bed.server.omitRefreshToken = false;
    }
  });

  it('backs off 30 s doubling while the provider is down, logs each state change, and recovers', async () => {
    await connectThroughProvider(bed, 'oauth-post');
    const connectedAt = 50 * MINUTE;
    bed.setClockOffset(connectedAt);
    const events = h.stateEvents().length;
    bed.server.down = true;
    try {
      // Due (the clock is well past the new connection's threshold only after 5 minutes).
      bed.setClockOffset(connectedAt + 6 * MINUTE);
      const failed = await h.refresh('oauth-post');
      expect(failed).toMatchObject({ status: 'failed', state: 'backoff' });
      let { health } = await h.status('oauth-post');
      expect(health.state).toBe('backoff');
      expect(health.lastFailure.reason).toMatch(/503 temporarily_unavailable/);
      expect(health.failingDays).toBe(1);
      const firstFailure = Date.parse(health.lastFailure.at);
      expect(Date.parse(health.nextRefreshAt) - firstFailure).toBe(30_000);
      expect(h.stateEvents().slice(events)).toEqual([
        expect.objectContaining({ integration: 'oauth-post', from: 'healthy', to: 'backoff' }),
      ]);

      // Inside the backoff: no request to the provider.
      const grants = bed.server.tokenRequests.length;
      expect((await h.refresh('oauth-post')).status).toBe('skipped');
      expect(bed.server.tokenRequests).toHaveLength(grants);

      bed.setClockOffset(connectedAt + 6 * MINUTE + 31_000);
      expect(await h.refresh('oauth-post')).toMatchObject({ status: 'failed', state: 'backoff' });
      ({ health } = await h.status('oauth-post'));
      expect(Date.parse(health.nextRefreshAt) - Date.parse(health.lastFailure.at)).toBe(60_000);
      // Still backoff: no new state event.
      expect(h.stateEvents().slice(events)).toHaveLength(1);

      bed.server.down = false;
      bed.setClockOffset(connectedAt + 6 * MINUTE + 92_000);
      expect((await h.refresh('oauth-post')).status).toBe('refreshed');
      ({ health } = await h.status('oauth-post'));
      expect(health).toMatchObject({ state: 'healthy', failingDays: 0 });
      expect(
        h
          .stateEvents()
          .slice(events)
          .map((event) => [event.from, event.to]),
      ).toEqual([
        ['healthy', 'backoff'],
        ['backoff', 'healthy'],
      ]);
    } finally {
      bed.server.down = false;
    }
  });

  it('is exhausted after four failing days; handlers get OAUTH_CONNECTION_UNAVAILABLE naming it; reconnecting heals it', async () => {
    await connectThroughProvider(bed, 'oauth-post');
    const start = 2 * 60 * MINUTE;
    bed.setClockOffset(start);
    bed.server.down = true;
    try {
      expect(await h.refresh('oauth-post', { kind: 'scheduled' })).toMatchObject({ state: 'backoff' });
      bed.setClockOffset(start + 2 * DAY);
      expect(await h.refresh('oauth-post')).toMatchObject({ state: 'backoff' });
      expect((await h.status('oauth-post')).health.failingDays).toBe(3);
      bed.setClockOffset(start + 4 * DAY);
      expect(await h.refresh('oauth-post')).toMatchObject({ status: 'failed', state: 'exhausted' });
      const { health } = await h.status('oauth-post');
      expect(health).toMatchObject({ state: 'exhausted', nextRefreshAt: null });
      expect(h.stateEvents().at(-1)).toMatchObject({ from: 'backoff', to: 'exhausted' });

      // Exhausted: the host no longer asks the provider, and a handler bearing the token is told so.
      const requests = bed.server.tokenRequests.length;
      const resources = bed.server.resourceRequests.length;
      expect(await h.refresh('oauth-post')).toEqual({ status: 'unavailable', state: 'exhausted' });
      expect(await h.whoami('oauth-post')).toEqual({
        unavailable: 'exhausted',
        code: 'OAUTH_CONNECTION_UNAVAILABLE',
      });
      expect(bed.server.tokenRequests).toHaveLength(requests);
      expect(bed.server.resourceRequests).toHaveLength(resources);
      // The sweep leaves it alone (another connection, due by now, may be refreshed: not this one).
      await bed.host.events.scheduler.tick();
      await bed.host.events.worker.drain();
      expect((await h.status('oauth-post')).health).toEqual(health);

      // The dashboard's health says it too.
      const dashboard = await integrationHealth(bed.host.db, bed.host.accountId, [
        { slug: 'oauth-post', name: 'Post', manifest: { oauth: {} } },
      ]);
      expect(dashboard.get('oauth-post')).toEqual({
        status: 'error',
        items: [
          {
            kind: 'oauth',
            at: health.lastFailure.at,
            message: expect.stringMatching(
              /^Post's connection has failed to refresh its token for days \(.*503/,
            ),
          },
        ],
      });
    } finally {
      bed.server.down = false;
    }
    bed.setClockOffset(start + 4 * DAY + MINUTE);
    await connectThroughProvider(bed, 'oauth-post');
    expect((await h.status('oauth-post')).health).toMatchObject({ state: 'healthy', failingDays: 0 });
    expect(await h.whoami('oauth-post')).toEqual({ status: 200, body: { sub: 'alice' } });
  });

  it('is revoked when the provider refuses the refresh token, and a 401 then names that state', async () => {
    bed.setClockOffset(0);
    await connectThroughProvider(bed, 'oauth-basic');
    const kept = (await h.tokens('oauth-basic'))!;
    // Spend the refresh token behind the host's back: with rotation on, the host's copy is now
    // refused as reused (oidc-provider then revokes the whole grant).
    expect(await spendRefreshToken(bed, kept.refreshToken!)).toBe(200);
    bed.setClockOffset(6 * MINUTE);
    expect(await h.refresh('oauth-basic')).toMatchObject({ status: 'failed', state: 'revoked' });
    expect((await h.status('oauth-basic')).health.lastFailure.reason).toMatch(/invalid_grant/);
    await bed.server.revokeAccessToken(kept.accessToken);
    expect(await h.whoami('oauth-basic')).toEqual({
      unavailable: 'revoked',
      code: 'OAUTH_CONNECTION_UNAVAILABLE',
    });
  });
});
