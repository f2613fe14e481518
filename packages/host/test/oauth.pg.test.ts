import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSchema } from './_host.js';
import { testDatabase } from './_postgres.js';
import {
  CLIENTS,
  type OAuthTestBed,
  PUBLIC_ORIGIN,
  startOAuthTestBed,
} from './fixtures/oauth/oauthTestBed.js';

const { url, skipped } = testDatabase();

// The OAuth loop on the real PostgreSQL server: states, connections and the tokens onTokens
// saves live in the shared database, as they do with several host instances.
describe.skipIf(!url)(`OAuth routes on PostgreSQL${url ? '' : ` (skipped: ${skipped})`}`, () => {
  let schema: Awaited<ReturnType<typeof pgSchema>>;
  let bed: OAuthTestBed;

  beforeAll(async () => {
    schema = await pgSchema(url!, 'oauth');
    bed = await startOAuthTestBed({ databaseUrl: schema.url });
    bed.server.tokenExtras = { workspace: 'acme-workspace' };
  }, 30_000);
  afterAll(async () => {
    await bed?.close();
    await schema?.drop();
  });

  const asSession = (): Record<string, string> => ({ cookie: `platform_session=${bed.session}` });
  const get = (path: string, headers: Record<string, string> = {}) => bed.host.app.request(path, { headers });
  const errorOf = (response: Response, slug: string) => {
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location') ?? '', PUBLIC_ORIGIN).searchParams.get(
      `${slug}_oauth_error`,
    );
  };

  async function callbackFor(slug: string, returnPath = '/apps'): Promise<string> {
    const connect = await get(
      `/api/integrations/${slug}/oauth/connect?accountId=${bed.host.accountId}&returnPath=${encodeURIComponent(returnPath)}`,
      asSession(),
    );
    expect(connect.status).toBe(302);
    const back = await bed.server.authorize(connect.headers.get('location')!);
    return `${back.pathname}${back.search}`;
  }

  async function status(slug: string) {
    return (
      await (
        await bed.host.call(`/api/integrations/${slug}/oauth/status?accountId=${bed.host.accountId}`)
      ).json()
    ).data;
  }

  it('connects with client_secret_basic and PKCE and keeps the tokens encrypted', async () => {
    expect(await status('oauth-basic')).toEqual({ connected: false });
    const response = await get(await callbackFor('oauth-basic', '/apps?tab=acme'), asSession());
    expect(response.headers.get('location')).toBe('/apps?tab=acme');

    const seen = bed.server.authorizationRequests.at(-1)!;
    expect(seen.code_challenge_method).toBe('S256');
    const exchange = bed.server.tokenRequests.at(-1)!;
    expect(exchange.authorization).toMatch(/^Basic /);
    expect(createHash('sha256').update(String(exchange.params.code_verifier)).digest('base64url')).toBe(
      seen.code_challenge,
    );

    const accessToken = String(bed.server.tokenResponses.at(-1)!.access_token);
    const { rows } = await bed.host.db.query(
      "SELECT tier, ciphertext FROM secrets WHERE integration_slug = 'oauth-basic' AND name = 'ACCESS_TOKEN'",
    );
    expect(rows.map((row) => row.tier)).toEqual(['account']);
    expect(String(rows[0]!.ciphertext)).not.toContain(accessToken);
    const stored = await bed.host.call(
      `/api/integrations/oauth-basic/storage?accountId=${bed.host.accountId}&keys=sync_state`,
    );
    expect((await stored.json()).data.sync_state).toMatchObject({
      raw: { workspace: 'acme-workspace' },
      tokenType: 'Bearer',
    });
    expect(await status('oauth-basic')).toMatchObject({ connected: true, scope: 'read write' });
  });

  it('connects with client_secret_post without PKCE', async () => {
    const response = await get(await callbackFor('oauth-post'), asSession());
    expect(response.headers.get('location')).toBe('/apps');
    expect(bed.server.authorizationRequests.at(-1)!.code_challenge).toBeUndefined();
    expect(bed.server.tokenRequests.at(-1)!.params).toMatchObject({
      client_id: CLIENTS.post.clientId,
      code_verifier: undefined,
    });
    expect((await status('oauth-post')).connected).toBe(true);
  });

  it('redirects with denied, unauthorized and expired', async () => {
    bed.server.decision = 'deny';
    try {
      expect(errorOf(await get(await callbackFor('oauth-post'), asSession()), 'oauth-post')).toBe('denied');
    } finally {
      bed.server.decision = 'grant';
    }
    const callback = await callbackFor('oauth-basic');
    expect(errorOf(await get(callback), 'oauth-basic')).toBe('unauthorized');
    expect(errorOf(await get(callback, asSession()), 'oauth-basic')).toBe('expired');

    const late = await callbackFor('oauth-basic');
    bed.setClockOffset(11 * 60_000);
    try {
      expect(errorOf(await get(late, asSession()), 'oauth-basic')).toBe('expired');
    } finally {
      bed.setClockOffset(0);
    }
  });

  it('redirects to the root with invalid for a forged state', async () => {
    const response = await get(
      '/api/integrations/oauth-basic/oauth/callback?code=x&state=forged',
      asSession(),
    );
    expect(response.headers.get('location')).toBe('/?oauth-basic_oauth_error=invalid');
  });
});
