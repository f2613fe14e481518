import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveVersion } from '../src/store/integrations.js';
import { readSecret } from '../src/store/secrets.js';
import { addMembership, createAccount } from '../src/store/users.js';
import {
  CLIENTS,
  type OAuthTestBed,
  PUBLIC_ORIGIN,
  startOAuthTestBed,
} from './fixtures/oauth/oauthTestBed.js';

// The host's OAuth loop end to end: a real authorization server (oidc-provider over HTTPS on
// loopback), the host's egress-checked fetch for the code exchange, and the fixture's onTokens.
describe('OAuth routes against a real authorization server', () => {
  let bed: OAuthTestBed;
  /** Every code the provider handed back, for the log check at the end. */
  const codes: string[] = [];

  beforeAll(async () => {
    bed = await startOAuthTestBed();
    bed.server.tokenExtras = { workspace: 'acme-workspace', team: { id: 'T1', name: 'Acme' } };
  }, 30_000);
  afterAll(() => bed?.close());

  const asSession = (): Record<string, string> => ({ cookie: `platform_session=${bed.session}` });
  const get = (path: string, headers: Record<string, string> = {}) => bed.host.app.request(path, { headers });
  const connectPath = (slug: string, returnPath: string, accountId = bed.host.accountId) =>
    `/api/integrations/${slug}/oauth/connect?accountId=${encodeURIComponent(accountId)}&returnPath=${encodeURIComponent(returnPath)}`;

  /** The redirect target of a 302, as a URL on the host's public origin. */
  function redirectOf(response: Response): URL {
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location') ?? '', PUBLIC_ORIGIN);
  }
  const errorOf = (response: Response, slug: string) =>
    redirectOf(response).searchParams.get(`${slug}_oauth_error`);

  /** GET connect as the signed-in browser user; the provider's authorization URL it redirects to. */
  async function connect(slug: string, returnPath = '/apps', accountId = bed.host.accountId): Promise<URL> {
    const location = redirectOf(await get(connectPath(slug, returnPath, accountId), asSession()));
    expect(location.origin).toBe(bed.server.origin);
    return location;
  }

  /** The provider's redirect back to the host, as a path the host app can be asked for. */
  async function authorize(authorizationUrl: URL): Promise<string> {
    const back = await bed.server.authorize(authorizationUrl.href);
    expect(`${back.origin}${back.pathname}`).toMatch(
      new RegExp(`^${PUBLIC_ORIGIN}/api/integrations/[a-z-]+/oauth/callback$`),
    );
    const code = back.searchParams.get('code');
    if (code !== null) codes.push(code);
    return `${back.pathname}${back.search}`;
  }

  async function flow(slug: string, returnPath = '/apps', accountId = bed.host.accountId) {
    const authorizationUrl = await connect(slug, returnPath, accountId);
    const callback = await authorize(authorizationUrl);
    return { authorizationUrl, callback, response: await get(callback, asSession()) };
  }

  async function status(slug: string, accountId = bed.host.accountId) {
    const response = await bed.host.call(`/api/integrations/${slug}/oauth/status?accountId=${accountId}`);
    expect(response.status).toBe(200);
    return response.json();
  }

  async function storedSecret(slug: string, name: string, accountId = bed.host.accountId) {
    const version = await liveVersion(bed.host.db, slug);
    return readSecret(
      bed.host.db,
      bed.host.services.secretBox,
      { slug, accountId, sourceId: version!.sourceId },
      name,
    );
  }

  /** A second account the seeded user owns, never connected. */
  async function freshAccount(): Promise<string> {
    const account = await createAccount(bed.host.db, {
      slug: `acct-${randomBytes(4).toString('hex')}`,
      name: 'Other',
    });
    await addMembership(bed.host.db, account.id, bed.host.userId, 'owner');
    // Served by the fixtures' source, as the seeded account is (the tenancy rule).
    await bed.host.db.query(
      'INSERT INTO source_accounts (source_id, account_id) SELECT DISTINCT source_id, $1 FROM integrations',
      [account.id],
    );
    return account.id;
  }

  it('connects with client_secret_basic and PKCE: S256 challenge, verifier sent, tokens saved by onTokens', async () => {
    expect(await status('oauth-basic')).toEqual({ ok: true, data: { connected: false } });
    const before = Date.now();

    const { authorizationUrl, response } = await flow('oauth-basic', '/settings/apps?tab=acme#connected');

    expect(response.headers.get('location')).toBe('/settings/apps?tab=acme#connected');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const seen = bed.server.authorizationRequests.at(-1)!;
    expect(seen).toMatchObject({
      response_type: 'code',
      client_id: CLIENTS.basic.clientId,
      redirect_uri: CLIENTS.basic.redirectUri,
      scope: 'read write',
      code_challenge_method: 'S256',
    });
    expect(seen.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizationUrl.pathname).toBe('/auth');

    const exchange = bed.server.tokenRequests.at(-1)!;
    expect(exchange).toMatchObject({ status: 200, clientId: CLIENTS.basic.clientId });
    expect(exchange.authorization).toMatch(/^Basic /);
    expect(exchange.params).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: CLIENTS.basic.redirectUri,
    });
    expect(exchange.params.client_secret).toBeUndefined();
    const verifier = String(exchange.params.code_verifier);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(seen.code_challenge);

    const issued = bed.server.tokenResponses.at(-1)!;
    expect(await storedSecret('oauth-basic', 'ACCESS_TOKEN')).toBe(issued.access_token);
    expect(await storedSecret('oauth-basic', 'REFRESH_TOKEN')).toBe(issued.refresh_token);
    const { rows } = await bed.host.db.query(
      "SELECT tier, ciphertext FROM secrets WHERE integration_slug = 'oauth-basic' AND name = 'ACCESS_TOKEN'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tier).toBe('account');
    const ciphertext = String(rows[0]!.ciphertext);
    expect(ciphertext).not.toContain(String(issued.access_token));
    expect(ciphertext).not.toContain(Buffer.from(String(issued.access_token)).toString('base64'));

    const stored = await bed.host.call(
      `/api/integrations/oauth-basic/storage?accountId=${bed.host.accountId}&keys=sync_state`,
    );
    const { sync_state: received } = (await stored.json()).data;
    expect(received).toMatchObject({
      scope: 'read write',
      tokenType: 'Bearer',
      hasRefreshToken: true,
      raw: { workspace: 'acme-workspace', team: { id: 'T1', name: 'Acme' } },
    });
    expect(Object.keys(received.raw).sort()).toEqual(['team', 'workspace']);
    expect(received.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const expiresAt = Date.parse(received.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000 - 2000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000 + 2000);

    const after = await status('oauth-basic');
    expect(after.data).toMatchObject({ connected: true, scope: 'read write' });
    expect(Date.parse(after.data.connectedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('connects with client_secret_post without PKCE', async () => {
    expect((await status('oauth-post')).data.connected).toBe(false);
    const { response } = await flow('oauth-post', '/apps/post');

    expect(response.headers.get('location')).toBe('/apps/post');
    const seen = bed.server.authorizationRequests.at(-1)!;
    expect(seen.client_id).toBe(CLIENTS.post.clientId);
    expect(seen.code_challenge).toBeUndefined();
    expect(seen.code_challenge_method).toBeUndefined();
    const exchange = bed.server.tokenRequests.at(-1)!;
    expect(exchange).toMatchObject({
      status: 200,
      clientId: CLIENTS.post.clientId,
      authorization: undefined,
    });
    expect(exchange.params).toMatchObject({
      client_id: CLIENTS.post.clientId,
      client_secret: CLIENTS.post.clientSecret,
    });
    expect(exchange.params.code_verifier).toBeUndefined();
    expect(await storedSecret('oauth-post', 'ACCESS_TOKEN')).toBe(
      bed.server.tokenResponses.at(-1)!.access_token,
    );
    expect((await status('oauth-post')).data).toMatchObject({ connected: true, scope: 'read write' });
  });

  it('redirects with denied when the user declines at the provider, keeping the return path query', async () => {
    const exchanges = bed.server.tokenRequests.length;
    bed.server.decision = 'deny';
    try {
      const { callback, response } = await flow('oauth-post', '/apps?tab=acme&x=1');
      expect(new URL(callback, PUBLIC_ORIGIN).searchParams.get('error')).toBe('access_denied');
      expect(response.headers.get('location')).toBe('/apps?tab=acme&x=1&oauth-post_oauth_error=denied');
    } finally {
      bed.server.decision = 'grant';
    }
    expect(bed.server.tokenRequests).toHaveLength(exchanges);
  });

  it('maps provider errors on a valid state: invalid_scope/unauthorized_client -> app_not_set_up, others -> provider_error', async () => {
    const cases = [
      ['invalid_scope', 'app_not_set_up'],
      ['unauthorized_client', 'app_not_set_up'],
      ['server_error', 'provider_error'],
      ['temporarily_unavailable', 'provider_error'],
    ] as const;
    for (const [providerError, code] of cases) {
      const state = (await connect('oauth-basic')).searchParams.get('state')!;
      const response = await get(
        `/api/integrations/oauth-basic/oauth/callback?error=${providerError}&error_description=nope&state=${state}`,
        asSession(),
      );
      expect(response.headers.get('location'), providerError).toBe(`/apps?oauth-basic_oauth_error=${code}`);
    }
  });

  it('redirects with exchange_failed when the provider refuses the client, logging only status and error code', async () => {
    const wrongSecret = `wrong-${randomBytes(8).toString('hex')}`;
    await bed.setSecret('oauth-post', 'global', 'OAUTH_CLIENT_SECRET', wrongSecret);
    const logged = bed.logs.length;
    try {
      const { callback, response } = await flow('oauth-post');
      expect(errorOf(response, 'oauth-post')).toBe('exchange_failed');
      expect(bed.server.tokenRequests.at(-1)!.status).toBe(401);
      const lines = bed.logs.slice(logged);
      const entry = lines.map((line) => JSON.parse(line)).find((record) => record.code === 'exchange_failed');
      expect(entry).toMatchObject({
        level: 40,
        integration: 'oauth-post',
        status: 401,
        error: 'invalid_client',
      });
      const code = new URL(callback, PUBLIC_ORIGIN).searchParams.get('code')!;
      for (const line of lines) {
        expect(line).not.toContain(wrongSecret);
        expect(line).not.toContain(code);
      }
    } finally {
      await bed.setSecret('oauth-post', 'global', 'OAUTH_CLIENT_SECRET', CLIENTS.post.clientSecret);
    }
  });

  it('redirects connect with not_configured when the client id secret is not set', async () => {
    const requests = bed.server.authorizationRequests.length;
    const response = await get(connectPath('oauth-unset', '/apps?tab=x'), asSession());
    expect(response.headers.get('location')).toBe('/apps?tab=x&oauth-unset_oauth_error=not_configured');
    expect(bed.server.authorizationRequests).toHaveLength(requests);
    expect(
      bed.logs.some((line) => line.includes('NEVER_SET_CLIENT_ID') && line.includes('not_configured')),
    ).toBe(true);
  });

  it('redirects with unauthorized when another user, or nobody, completes the callback; the state is spent', async () => {
    const exchanges = bed.server.tokenRequests.length;
    const other = await bed.host.addUser('admin');
    const callback = await authorize(await connect('oauth-basic'));
    const asOther = await get(callback, { authorization: `Bearer ${other.token}` });
    expect(errorOf(asOther, 'oauth-basic')).toBe('unauthorized');
    // The first callback spent the state, even a refused one.
    expect(errorOf(await get(callback, asSession()), 'oauth-basic')).toBe('expired');

    const anonymous = await get(await authorize(await connect('oauth-basic')));
    expect(errorOf(anonymous, 'oauth-basic')).toBe('unauthorized');
    const badCookie = await get(await authorize(await connect('oauth-basic')), {
      cookie: 'platform_session=pls_forged',
    });
    expect(errorOf(badCookie, 'oauth-basic')).toBe('unauthorized');
    expect(bed.server.tokenRequests).toHaveLength(exchanges);
  });

  it('redirects to the root with invalid for a forged, missing or foreign state', async () => {
    const forged = await get(
      `/api/integrations/oauth-basic/oauth/callback?code=abc&state=${randomBytes(32).toString('base64url')}`,
      asSession(),
    );
    expect(forged.headers.get('location')).toBe('/?oauth-basic_oauth_error=invalid');
    const missing = await get('/api/integrations/oauth-basic/oauth/callback?code=abc', asSession());
    expect(missing.headers.get('location')).toBe('/?oauth-basic_oauth_error=invalid');
    // A state issued for one integration is not valid at another's callback.
    const state = (await connect('oauth-basic')).searchParams.get('state')!;
    const foreign = await get(
      `/api/integrations/oauth-post/oauth/callback?code=abc&state=${state}`,
      asSession(),
    );
    expect(foreign.headers.get('location')).toBe('/?oauth-post_oauth_error=invalid');
  });

  it('redirects with expired for a replayed callback and for a state older than 10 minutes', async () => {
    const { callback, response } = await flow('oauth-basic', '/apps/replay');
    expect(response.headers.get('location')).toBe('/apps/replay');
    const exchanges = bed.server.tokenRequests.length;
    const replay = await get(callback, asSession());
    expect(replay.headers.get('location')).toBe('/apps/replay?oauth-basic_oauth_error=expired');
    expect(bed.server.tokenRequests).toHaveLength(exchanges);

    try {
      const late = await authorize(await connect('oauth-basic', '/apps/late'));
      bed.setClockOffset(10 * 60_000 + 1000);
      expect((await get(late, asSession())).headers.get('location')).toBe(
        '/apps/late?oauth-basic_oauth_error=expired',
      );
      bed.setClockOffset(0);
      // Just inside the window it still completes.
      const inTime = await authorize(await connect('oauth-basic', '/apps/in-time'));
      bed.setClockOffset(9 * 60_000 + 30_000);
      expect((await get(inTime, asSession())).headers.get('location')).toBe('/apps/in-time');
    } finally {
      bed.setClockOffset(0);
    }
  });

  it('redirects with the code onTokens refuses with (wrong_workspace, organization_access) or save_failed; nothing is kept', async () => {
    for (const [outcome, code] of [
      ['wrong_workspace', 'wrong_workspace'],
      ['organization_access', 'organization_access'],
      ['fail', 'save_failed'],
    ] as const) {
      const accountId = await freshAccount();
      bed.server.tokenExtras = { outcome };
      try {
        const { response } = await flow('oauth-post', '/apps', accountId);
        expect(errorOf(response, 'oauth-post'), outcome).toBe(code);
      } finally {
        bed.server.tokenExtras = { workspace: 'acme-workspace', team: { id: 'T1', name: 'Acme' } };
      }
      expect(await status('oauth-post', accountId)).toEqual({ ok: true, data: { connected: false } });
      expect(await storedSecret('oauth-post', 'ACCESS_TOKEN', accountId)).toBeUndefined();
    }
  });

  it('refuses a returnPath that is not a same-origin path with 400 invalid_input', async () => {
    for (const returnPath of [
      'https://evil.example',
      '//evil.example',
      '/\\evil',
      'javascript:alert(1)',
      '/\t/evil.example',
      'apps',
      '',
    ]) {
      const response = await get(connectPath('oauth-basic', returnPath), asSession());
      expect(response.status, JSON.stringify(returnPath)).toBe(400);
      expect((await response.json()).error.code).toBe('invalid_input');
    }
    const missing = await get(
      `/api/integrations/oauth-basic/oauth/connect?accountId=${bed.host.accountId}`,
      asSession(),
    );
    expect(missing.status).toBe(400);
  });

  it('answers JSON errors on connect and status before a return path can be trusted', async () => {
    const anonymous = await get(connectPath('oauth-basic', '/apps'));
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe('unauthorized');
    const outsider = await bed.host.addUser('member', { member: false });
    const forbidden = await get(connectPath('oauth-basic', '/apps'), {
      authorization: `Bearer ${outsider.token}`,
    });
    expect(forbidden.status).toBe(403);
    const noOAuth = await get(connectPath('test-notes', '/apps'), asSession());
    expect(noOAuth.status).toBe(404);
    expect((await noOAuth.json()).error.code).toBe('integration_not_found');
    const unknown = await get(connectPath('no-such-integration', '/apps'), asSession());
    expect(unknown.status).toBe(404);
    expect(
      (await bed.host.call(`/api/integrations/test-notes/oauth/status?accountId=${bed.host.accountId}`))
        .status,
    ).toBe(404);
    expect((await bed.host.call('/api/integrations/oauth-basic/oauth/status')).status).toBe(400);
  });

  it('never logs a token, code, state, verifier or client secret', async () => {
    const sensitive = [
      ...bed.server.tokenResponses.flatMap((response) => [response.access_token, response.refresh_token]),
      ...codes,
      ...bed.server.authorizationRequests.flatMap((request) => [request.state, request.code_challenge]),
      ...bed.server.tokenRequests.map((request) => request.params.code_verifier),
      CLIENTS.basic.clientSecret,
      CLIENTS.post.clientSecret,
    ].filter((value): value is string => typeof value === 'string' && value !== '');
    expect(sensitive.length).toBeGreaterThan(20);
    expect(bed.logs.length).toBeGreaterThan(20);
    for (const line of bed.logs) {
      for (const value of sensitive) expect(line).not.toContain(value);
    }
    // Callback requests are logged, with their query (code and state) redacted.
    expect(bed.logs.some((line) => line.includes('/oauth/callback?...'))).toBe(true);
  });
});
