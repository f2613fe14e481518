import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { asHarnessDefinition, type HarnessRegistryEntry } from '@platform/harness';
import { createHarnessApiHandlers } from '@platform/harness/api';
import { HARNESS_ACCOUNT_ID } from '@platform/harness/registry';
import { createEgressFetch } from '@platform/sdk/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuthorizationServer,
  startAuthorizationServer,
  type TestClient,
} from '../../../host/test/fixtures/oauth/authorizationServer.js';
import { oauthFixture } from '../../../host/test/fixtures/oauth/integration.js';
import { tempProject } from './_helpers.js';

const ORIGIN = 'http://localhost:5173';
const callbackOf = (slug: string) => `${ORIGIN}/api/integrations/${slug}/oauth/callback`;
const CLIENTS = {
  basic: {
    clientId: 'harness-basic',
    clientSecret: 'basic secret:+/%&',
    tokenAuthMethod: 'client_secret_basic',
    pkceRequired: true,
    redirectUri: callbackOf('oauth-basic'),
  },
  post: {
    clientId: 'harness-post',
    clientSecret: 'post-client-secret',
    tokenAuthMethod: 'client_secret_post',
    pkceRequired: false,
    redirectUri: callbackOf('oauth-post'),
  },
} as const satisfies Record<string, TestClient>;

let server: AuthorizationServer;
let liveFetch: ReturnType<typeof createEgressFetch>;
beforeAll(async () => {
  server = await startAuthorizationServer(Object.values(CLIENTS));
  liveFetch = createEgressFetch({ allowLoopback: true, ca: server.ca, timeoutMs: 10_000 });
});
afterAll(async () => {
  await liveFetch?.close();
  await server?.close();
});
beforeEach(() => {
  server.decision = 'grant';
  server.tokenExtras = {};
});

function entry(
  slug: string,
  pkce: boolean,
  tokenAuthMethod: TestClient['tokenAuthMethod'],
): HarnessRegistryEntry {
  return {
    slug,
    name: slug,
    description: 'OAuth test integration',
    widgets: [],
    definition: asHarnessDefinition(oauthFixture({ slug, origin: server.origin, pkce, tokenAuthMethod })),
    live: {},
    oauth: { connected: { default: true, empty: false } },
  };
}

/** A harness with both integrations, its log, a clock to move, and one browser's cookie jar. */
async function bed(credentials: Record<string, string> | undefined = undefined) {
  const projectDir = await tempProject();
  const lines: string[] = [];
  let offset = 0;
  const handlers = createHarnessApiHandlers(
    [entry('oauth-basic', true, 'client_secret_basic'), entry('oauth-post', false, 'client_secret_post')],
    {
      projectDir,
      env: {},
      liveFetch,
      log: (line) => lines.push(line),
      now: () => new Date(Date.now() + offset),
    },
  );
  // Both entries read the same secret names: one bed connects one client.
  const secrets = credentials ?? {
    OAUTH_CLIENT_ID: CLIENTS.post.clientId,
    OAUTH_CLIENT_SECRET: CLIENTS.post.clientSecret,
  };
  if (Object.keys(secrets).length > 0) {
    const setup = await handlers.fetch(
      new Request(`${ORIGIN}/api/integrations/oauth-post/local-setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secrets }),
      }),
    );
    expect(setup.status).toBe(200);
  }
  const get = (path: string, init: { cookie?: string | undefined; headers?: Record<string, string> } = {}) =>
    handlers.fetch(
      new Request(path.startsWith('http') ? path : `${ORIGIN}${path}`, {
        headers: { ...(init.cookie === undefined ? {} : { cookie: init.cookie }), ...init.headers },
      }),
    );
  return {
    projectDir,
    lines,
    get,
    setClockOffset(ms: number) {
      offset = ms;
    },
    async store() {
      try {
        return JSON.parse(await readFile(join(projectDir, '.platform/live/store.json'), 'utf8'));
      } catch {
        return { version: 1, integrations: {} };
      }
    },
    async status(slug: string, headers: Record<string, string> = { 'x-harness-mode': 'live' }) {
      const response = await get(`/api/integrations/${slug}/oauth/status?accountId=${HARNESS_ACCOUNT_ID}`, {
        headers,
      });
      return { status: response.status, body: await response.json() };
    },
    /** Connect as a browser: the redirect to the provider and the nonce cookie it set. */
    async connect(slug: string, returnPath = '/apps?tab=acme', cookie?: string) {
      const response = await get(
        `/api/integrations/${slug}/oauth/connect?accountId=${HARNESS_ACCOUNT_ID}&returnPath=${encodeURIComponent(returnPath)}`,
        { cookie },
      );
      const setCookie = response.headers.get('set-cookie') ?? '';
      return {
        response,
        location: new URL(response.headers.get('location') ?? '/', ORIGIN),
        cookie: setCookie.split(';')[0] ?? '',
        setCookie,
      };
    },
    /** connect -> provider (user grants or denies) -> callback, in one browser. */
    async flow(slug: string, returnPath = '/apps?tab=acme') {
      const started = await this.connect(slug, returnPath);
      const callback = await server.authorize(started.location.toString());
      const response = await get(callback.toString(), { cookie: started.cookie });
      return { started, callback, response, location: response.headers.get('location') };
    },
  };
}

const SECRETS_BASIC = {
  OAUTH_CLIENT_ID: CLIENTS.basic.clientId,
  OAUTH_CLIENT_SECRET: CLIENTS.basic.clientSecret,
};

describe('harness OAuth loop against a real authorization server', () => {
  it('connects with PKCE and HTTP Basic client auth: onTokens writes land in the live store, status turns connected', async () => {
    const harness = await bed(SECRETS_BASIC);
    expect((await harness.status('oauth-basic')).body).toEqual({ ok: true, data: { connected: false } });

    const { started, callback, response, location } = await harness.flow('oauth-basic', '/apps?tab=acme#top');
    expect(started.response.status).toBe(302);
    expect(started.response.headers.get('cache-control')).toBe('no-store');
    expect(started.setCookie).toMatch(/HttpOnly/i);
    expect(started.setCookie).toMatch(/SameSite=Lax/i);
    expect(started.setCookie).toMatch(/Path=\/api\/integrations\//);
    const authorization = server.authorizationRequests.at(-1)!;
    expect(authorization).toMatchObject({
      response_type: 'code',
      client_id: CLIENTS.basic.clientId,
      redirect_uri: CLIENTS.basic.redirectUri,
      scope: 'read write',
      code_challenge_method: 'S256',
    });
    expect(authorization.state).toMatch(/^[\w-]{43}$/);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(response.status).toBe(302);
    expect(location).toBe('/apps?tab=acme#top');

    const token = server.tokenRequests.at(-1)!;
    expect(token.status).toBe(200);
    expect(token.authorization).toMatch(/^Basic /);
    expect(token.params.code_verifier).toMatch(/^[\w-]{43,128}$/);
    expect(token.params.client_secret).toBeUndefined();

    const issued = server.tokenResponses.at(-1)!;
    const stored = (await harness.store()).integrations['oauth-basic'];
    expect(stored.secrets.account.ACCESS_TOKEN).toBe(issued.access_token);
    expect(stored.secrets.account.REFRESH_TOKEN).toBe(issued.refresh_token);
    expect(stored.storage.account.sync_state).toMatchObject({ scope: 'read write', tokenType: 'Bearer' });
    const status = await harness.status('oauth-basic');
    expect(status.body.data).toMatchObject({ connected: true, scope: 'read write' });
    expect(Date.parse(status.body.data.connectedAt)).not.toBeNaN();

    // Fixtures mode still answers from oauth.connected, per variant.
    expect((await harness.status('oauth-basic', {})).body.data).toEqual({
      connected: true,
      connectedAt: expect.any(String),
    });
    expect((await harness.status('oauth-basic', { 'x-harness-variant': 'empty' })).body.data).toEqual({
      connected: false,
    });

    // Nothing secret reaches the harness log: no token, code, state, verifier or client secret.
    const log = harness.lines.join('\n');
    expect(log).toContain('OAuth oauth-basic: connected');
    for (const secret of [
      String(issued.access_token),
      String(issued.refresh_token),
      callback.searchParams.get('code')!,
      authorization.state!,
      String(token.params.code_verifier),
      CLIENTS.basic.clientSecret,
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('sends client_id and client_secret in the form body for client_secret_post, without PKCE', async () => {
    const harness = await bed();
    const { location } = await harness.flow('oauth-post', '/apps/post');
    expect(location).toBe('/apps/post');
    const authorization = server.authorizationRequests.at(-1)!;
    expect(authorization.code_challenge).toBeUndefined();
    const token = server.tokenRequests.at(-1)!;
    expect(token.status).toBe(200);
    expect(token.authorization).toBeUndefined();
    expect(token.params).toMatchObject({
      client_id: CLIENTS.post.clientId,
      client_secret: CLIENTS.post.clientSecret,
    });
    expect(token.params.code_verifier).toBeUndefined();
    expect((await harness.status('oauth-post')).body.data.connected).toBe(true);
  });

  it('a state works once, within 10 minutes, and only in the browser that started it', async () => {
    const harness = await bed(SECRETS_BASIC);
    const first = await harness.flow('oauth-basic');
    expect(first.location).toBe('/apps?tab=acme');
    const replay = await harness.get(first.callback.toString(), { cookie: first.started.cookie });
    expect(replay.headers.get('location')).toBe('/apps?tab=acme&oauth-basic_oauth_error=expired');

    const other = await harness.connect('oauth-basic');
    const otherCallback = await server.authorize(other.location.toString());
    const noCookie = await harness.get(otherCallback.toString());
    expect(noCookie.headers.get('location')).toBe('/apps?tab=acme&oauth-basic_oauth_error=unauthorized');

    const third = await harness.connect('oauth-basic');
    const thirdCallback = await server.authorize(third.location.toString());
    const stranger = `platform_harness_oauth=${'x'.repeat(43)}`;
    const wrongBrowser = await harness.get(thirdCallback.toString(), { cookie: stranger });
    expect(wrongBrowser.headers.get('location')).toBe('/apps?tab=acme&oauth-basic_oauth_error=unauthorized');

    const late = await harness.connect('oauth-basic');
    const lateCallback = await server.authorize(late.location.toString());
    harness.setClockOffset(10 * 60_000 + 1000);
    const expired = await harness.get(lateCallback.toString(), { cookie: late.cookie });
    expect(expired.headers.get('location')).toBe('/apps?tab=acme&oauth-basic_oauth_error=expired');

    const unknown = await harness.get(
      '/api/integrations/oauth-basic/oauth/callback?code=x&state=never-issued',
    );
    expect(unknown.headers.get('location')).toBe('/?oauth-basic_oauth_error=invalid');
    // A state issued for one integration is unknown to another.
    const crossed = await harness.connect('oauth-basic');
    const crossedState = crossed.location.searchParams.get('state')!;
    const misrouted = await harness.get(
      `/api/integrations/oauth-post/oauth/callback?code=x&state=${crossedState}`,
      {
        cookie: crossed.cookie,
      },
    );
    expect(misrouted.headers.get('location')).toBe('/?oauth-post_oauth_error=invalid');
  });

  it('maps the provider refusing to denied, app_not_set_up and provider_error', async () => {
    const harness = await bed(SECRETS_BASIC);
    server.decision = 'deny';
    const denied = await harness.flow('oauth-basic');
    expect(denied.location).toBe('/apps?tab=acme&oauth-basic_oauth_error=denied');
    for (const [error, code] of [
      ['invalid_scope', 'app_not_set_up'],
      ['unauthorized_client', 'app_not_set_up'],
      ['server_error', 'provider_error'],
    ] as const) {
      const started = await harness.connect('oauth-basic');
      const state = started.location.searchParams.get('state')!;
      const response = await harness.get(
        `/api/integrations/oauth-basic/oauth/callback?error=${error}&error_description=nope&state=${state}`,
        { cookie: started.cookie },
      );
      expect(response.headers.get('location'), error).toBe(`/apps?tab=acme&oauth-basic_oauth_error=${code}`);
    }
    expect((await harness.status('oauth-basic')).body.data.connected).toBe(false);
  });

  it('not_configured without client credentials; exchange_failed with a wrong secret, logged without it', async () => {
    const unset = await bed({});
    const started = await unset.connect('oauth-basic', '/apps?x=1');
    expect(started.response.status).toBe(302);
    expect(started.response.headers.get('location')).toBe('/apps?x=1&oauth-basic_oauth_error=not_configured');
    expect(unset.lines.join('\n')).toMatch(/"OAUTH_CLIENT_ID" is not set in \.platform\/local-secrets\.json/);

    const wrongSecret = 'wrong-secret-value-123';
    const wrong = await bed({ OAUTH_CLIENT_ID: CLIENTS.basic.clientId, OAUTH_CLIENT_SECRET: wrongSecret });
    const { location } = await wrong.flow('oauth-basic');
    expect(location).toBe('/apps?tab=acme&oauth-basic_oauth_error=exchange_failed');
    const log = wrong.lines.join('\n');
    expect(log).toMatch(/callback failed \(exchange_failed\).*status=401.*error="invalid_client"/);
    expect(log).not.toContain(wrongSecret);
    expect((await wrong.store()).integrations['oauth-basic']?.oauth).toBeUndefined();
  });

  it('onTokens refusing is its reason, onTokens failing after writes is save_failed, and neither keeps a write', async () => {
    const harness = await bed(SECRETS_BASIC);
    for (const [outcome, code] of [
      ['wrong_workspace', 'wrong_workspace'],
      ['organization_access', 'organization_access'],
      ['fail', 'save_failed'],
    ] as const) {
      server.tokenExtras = { outcome };
      const { location } = await harness.flow('oauth-basic');
      expect(location, outcome).toBe(`/apps?tab=acme&oauth-basic_oauth_error=${code}`);
    }
    const stored = (await harness.store()).integrations['oauth-basic'];
    expect(stored?.secrets.account.ACCESS_TOKEN).toBeUndefined();
    expect(stored?.storage.account.sync_state).toBeUndefined();
    expect((await harness.status('oauth-basic')).body.data.connected).toBe(false);
    expect(harness.lines.join('\n')).toContain(
      'onTokens error: onTokens failed: Error: the token store is unavailable',
    );
  });

  it('answers malformed connect and status requests with JSON errors naming the fix', async () => {
    const harness = await bed(SECRETS_BASIC);
    const outside = await harness.get(
      '/api/integrations/oauth-basic/oauth/connect?returnPath=https%3A%2F%2Fevil.example%2F',
    );
    expect(outside.status).toBe(400);
    expect((await outside.json()).error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/returnPath/),
    });
    const account = await harness.get('/api/integrations/oauth-basic/oauth/status?accountId=someone-else');
    expect(account.status).toBe(400);
    expect((await account.json()).error.message).toContain(HARNESS_ACCOUNT_ID);

    const plain = createHarnessApiHandlers(
      [{ slug: 'plain', name: 'Plain', description: 'No OAuth', widgets: [] }],
      { projectDir: harness.projectDir, env: {}, log: () => {} },
    );
    const none = await plain.fetch(new Request(`${ORIGIN}/api/integrations/plain/oauth/status`));
    expect(none.status).toBe(404);
    expect((await none.json()).error).toMatchObject({ code: 'integration_not_found' });
  });
});
