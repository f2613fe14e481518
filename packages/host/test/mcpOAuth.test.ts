// OAuth for MCP clients on a running host: metadata (RFC 9728, RFC 8414), registration (RFC 7591)
// and client ID metadata documents, the authorization code flow with PKCE driven by the 2025-era
// client's own `auth()` (`@modelcontextprotocol/sdk` 1.x) through the consent API, then /mcp with
// the token from that client and from the 2026-07-28 client (v2); codes used twice, wrong
// verifiers and resources, the audience rule on the other routes, refresh rotation and reuse,
// revocation, grants, and no token in any log line.
import { createHash, randomBytes } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackCertificate } from '../../sdk/test/_tls.js';
import { addMembership, createAccount, createToken } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';

let host: TestHost;
let server: HttpServer;
let base: string;
let cookie: string;
let documents: HttpsServer;
let documentsOrigin: string;
const logs: string[] = [];
const secrets: string[] = [];
const REDIRECT = 'http://127.0.0.1:33418/callback';

beforeAll(async () => {
  const pems = await loopbackCertificate();
  // The client ID metadata documents, served over https on loopback (the host's fetch trusts the
  // certificate and may reach loopback, as in the partner OAuth tests).
  documents = createHttpsServer(pems, (request, response) => {
    const clientId = `${documentsOrigin}${request.url}`;
    if (request.url === '/huge.json') {
      response.end(
        JSON.stringify({ client_id: clientId, redirect_uris: [REDIRECT], pad: 'x'.repeat(40_000) }),
      );
      return;
    }
    response.setHeader('content-type', 'application/json');
    if (request.url === '/other.json') {
      response.end(
        JSON.stringify({ client_id: `${documentsOrigin}/client.json`, redirect_uris: [REDIRECT] }),
      );
      return;
    }
    response.end(
      JSON.stringify({ client_id: clientId, client_name: 'Document Assistant', redirect_uris: [REDIRECT] }),
    );
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentsOrigin = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  host = await startTestHost({
    projects: ['tools'],
    egress: { allowLoopback: true, ca: pems.cert },
    logger: pino({ level: 'debug' }, { write: (line: string) => logs.push(line) }),
  });
  server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as HttpServer;
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const session = await createToken(host.db, { userId: host.userId, kind: 'session' });
  cookie = `platform_session=${session.token}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  documents.closeAllConnections();
  await new Promise((resolve) => documents.close(resolve));
  await host.close();
});

const verifierAndChallenge = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

async function register(body: Record<string, unknown> = {}) {
  return fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test Assistant', redirect_uris: [REDIRECT], ...body }),
  });
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: `${base}/mcp`,
    ...extra,
  });
  return `${base}/oauth/authorize?${query}`;
}

/** What a signed-in person's browser does: follow /oauth/authorize to the consent page, then decide. */
async function consent(
  authorizationUrl: string,
  decision: 'allow' | 'deny' = 'allow',
  accountId = host.accountId,
): Promise<{ shown: Record<string, unknown>; redirectTo: URL }> {
  const started = await fetch(authorizationUrl, { redirect: 'manual', headers: { cookie } });
  expect(started.status).toBe(302);
  const page = new URL(started.headers.get('location') ?? '', base);
  expect(page.pathname).toBe('/oauth/consent');
  const request = page.search.slice(1);
  const shown = await fetch(`${base}/api/platform/mcp/consent?${request}`, { headers: { cookie } });
  expect(shown.status).toBe(200);
  const decided = await fetch(`${base}/api/platform/mcp/consent`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ request, accountId, decision }),
  });
  expect(decided.status).toBe(200);
  const body = (await decided.json()) as { data: { redirectTo: string } };
  return {
    shown: ((await shown.json()) as { data: Record<string, unknown> }).data,
    redirectTo: new URL(body.data.redirectTo),
  };
}

async function token(form: Record<string, string>) {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const body = (await response.json()) as Record<string, unknown>;
  for (const key of ['access_token', 'refresh_token'])
    if (typeof body[key] === 'string') secrets.push(body[key]);
  return { status: response.status, body };
}

// Registrations are limited per client address (REGISTRATIONS_PER_MINUTE): most tests share one.
let shared: string | undefined;
async function sharedClient(): Promise<string> {
  shared ??= ((await (await register()).json()) as { client_id: string }).client_id;
  return shared;
}

/** A registered client, a code allowed for the seeded account, and its verifier. */
async function allowedCode(): Promise<{ clientId: string; code: string; verifier: string }> {
  const clientId = await sharedClient();
  const { verifier, challenge } = verifierAndChallenge();
  const { redirectTo } = await consent(authorizeUrl(clientId, challenge));
  const code = redirectTo.searchParams.get('code') ?? '';
  secrets.push(code);
  return { clientId, code, verifier };
}

async function exchanged() {
  const { clientId, code, verifier } = await allowedCode();
  const { status, body } = await token({
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: `${base}/mcp`,
  });
  expect(status).toBe(200);
  return {
    clientId,
    code,
    verifier,
    access: body.access_token as string,
    refresh: body.refresh_token as string,
  };
}

const listTools = (bearer: string, query = '') =>
  fetch(`${base}/mcp${query}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });

describe('OAuth metadata', () => {
  it('serves protected resource metadata for /mcp and authorization server metadata', async () => {
    const resource = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const server = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      client_id_metadata_document_supported: true,
    });
  });

  it('answers /mcp without a token 401 pointing at the resource metadata', async () => {
    const response = await fetch(`${base}/mcp`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).not.toContain('error=');
  });
});

describe('client registration', () => {
  it('registers a public client with https or loopback redirect URIs only', async () => {
    const made = await register();
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({
      client_id: expect.stringMatching(/^mcp_/),
      client_name: 'Test Assistant',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    expect((await register({ redirect_uris: ['https://assistant.example/cb'] })).status).toBe(201);
    const plainHttp = await register({ redirect_uris: ['http://assistant.example/cb'] });
    expect(plainHttp.status).toBe(400);
    expect(await plainHttp.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    expect((await register({ redirect_uris: [] })).status).toBe(400);
    expect((await register({ redirect_uris: ['https://a.example/cb#frag'] })).status).toBe(400);
    expect((await register({ token_endpoint_auth_method: 'client_secret_basic' })).status).toBe(400);
  });

  it('refuses a body over the JSON limit unread', async () => {
    const big = await register({ client_name: 'x'.repeat(host.services.limits.jsonBodyBytes + 10) });
    expect(big.status).toBe(413);
  });
});

describe('the authorization code flow', () => {
  it('runs the 2025-era client auth() end to end, then lists tools with the 2025 and 2026 clients', async () => {
    let clientInformation: OAuthClientInformationMixed | undefined;
    let tokens: OAuthTokens | undefined;
    let codeVerifier = '';
    let authorizationUrl: URL | undefined;
    const provider: OAuthClientProvider = {
      get redirectUrl() {
        return REDIRECT;
      },
      get clientMetadata() {
        return {
          client_name: 'SDK Assistant',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        };
      },
      state: () => 'sdk-state',
      clientInformation: () => clientInformation,
      saveClientInformation: (information) => {
        clientInformation = information;
      },
      tokens: () => tokens,
      saveTokens: (saved) => {
        tokens = saved;
        secrets.push(saved.access_token, saved.refresh_token ?? '');
      },
      redirectToAuthorization: (url) => {
        authorizationUrl = url;
      },
      saveCodeVerifier: (verifier) => {
        codeVerifier = verifier;
      },
      codeVerifier: () => codeVerifier,
    };
    expect(await auth(provider, { serverUrl: `${base}/mcp` })).toBe('REDIRECT');
    expect(authorizationUrl?.searchParams.get('resource')).toBe(`${base}/mcp`);
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    const { shown, redirectTo } = await consent(authorizationUrl?.toString() ?? '');
    expect(shown).toMatchObject({
      client: { name: 'SDK Assistant', redirectHost: '127.0.0.1:33418' },
      accounts: [
        {
          id: host.accountId,
          role: 'owner',
          tools: expect.arrayContaining([
            expect.objectContaining({ name: 'test_tools_delete_notes', effect: 'destructive' }),
            expect.objectContaining({ name: 'test_tools_search_notes', effect: 'read' }),
          ]),
        },
      ],
    });
    expect(redirectTo.searchParams.get('state')).toBe('sdk-state');
    const code = redirectTo.searchParams.get('code') ?? '';
    expect(code).toMatch(/^pmc_/);
    secrets.push(code);
    expect(await auth(provider, { serverUrl: `${base}/mcp`, authorizationCode: code })).toBe('AUTHORIZED');
    expect(tokens?.access_token).toMatch(/^pma_/);
    expect(tokens?.refresh_token).toMatch(/^pmr_/);

    const legacy = new LegacyClient({ name: 'sdk-assistant', version: '1' });
    await legacy.connect(new LegacyTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    const listed = await legacy.listTools();
    expect(listed.tools.map((tool) => tool.name)).toContain('test_tools_search_notes');
    await legacy.close();

    const modern = new Client(
      { name: 'modern-assistant', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${tokens?.access_token}` } },
      }),
    );
    const called = await modern.callTool({ name: 'test_tools_search_notes', arguments: { text: 'x' } });
    expect(called.isError).not.toBe(true);
    expect(called.structuredContent).toBeDefined();
    await modern.close();
  });

  it('sends a signed-out browser to the sign-in page, then back to the consent page', async () => {
    const clientId = await sharedClient();
    const url = authorizeUrl(clientId, verifierAndChallenge().challenge);
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '', base);
    expect(location.pathname).toBe('/sign-in');
    expect(location.searchParams.get('next')).toBe(`/oauth/consent?${new URL(url).search.slice(1)}`);
  });

  it('refuses a wrong resource, a missing PKCE challenge, and an unregistered redirect URI', async () => {
    const clientId = await sharedClient();
    const { challenge } = verifierAndChallenge();
    const wrongResource = await fetch(
      authorizeUrl(clientId, challenge, { resource: 'https://elsewhere.example/mcp' }),
      {
        redirect: 'manual',
        headers: { cookie },
      },
    );
    expect(wrongResource.status).toBe(302);
    const back = new URL(wrongResource.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('state')).toBe('st-1');
    const plain = await fetch(authorizeUrl(clientId, challenge, { code_challenge_method: 'plain' }), {
      redirect: 'manual',
    });
    expect(new URL(plain.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_request');
    // A redirect URI the client did not register is never redirected to.
    const foreign = await fetch(
      authorizeUrl(clientId, challenge, { redirect_uri: 'https://attacker.example/cb' }),
      {
        redirect: 'manual',
      },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    const unknown = await fetch(authorizeUrl('mcp_nobody', challenge), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('sends "Deny" back to the client as access_denied', async () => {
    const clientId = await sharedClient();
    const { redirectTo } = await consent(authorizeUrl(clientId, verifierAndChallenge().challenge), 'deny');
    expect(redirectTo.searchParams.get('error')).toBe('access_denied');
    expect(redirectTo.searchParams.get('state')).toBe('st-1');
    expect(redirectTo.searchParams.get('code')).toBeNull();
  });

  it('refuses consent for an account the user is not a member of', async () => {
    const clientId = await sharedClient();
    const other = await createAccount(host.db, {
      slug: `other-${randomBytes(3).toString('hex')}`,
      name: 'Other',
    });
    const started = await fetch(authorizeUrl(clientId, verifierAndChallenge().challenge), {
      redirect: 'manual',
      headers: { cookie },
    });
    const request = new URL(started.headers.get('location') ?? '', base).search.slice(1);
    const decided = await fetch(`${base}/api/platform/mcp/consent`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ request, accountId: other.id, decision: 'allow' }),
    });
    expect(decided.status).toBe(403);
    // From another site, the consent API is refused whatever the cookie.
    const crossSite = await fetch(`${base}/api/platform/mcp/consent`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ request, accountId: host.accountId, decision: 'allow' }),
    });
    expect(crossSite.status).toBe(403);
  });

  it('binds the token to the account chosen at consent', async () => {
    const second = await createAccount(host.db, {
      slug: `second-${randomBytes(3).toString('hex')}`,
      name: 'Second',
    });
    await addMembership(host.db, second.id, host.userId, 'member');
    const clientId = await sharedClient();
    const { verifier, challenge } = verifierAndChallenge();
    const { redirectTo } = await consent(authorizeUrl(clientId, challenge), 'allow', second.slug);
    const { body } = await token({
      grant_type: 'authorization_code',
      code: redirectTo.searchParams.get('code') ?? '',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    const access = body.access_token as string;
    expect((await listTools(access)).status).toBe(200);
    expect((await listTools(access, `?accountId=${second.id}`)).status).toBe(200);
    expect((await listTools(access, `?accountId=${host.accountId}`)).status).toBe(403);
  });
});

describe('the token endpoint', () => {
  it('takes a code once: a second use is refused and revokes what the first issued', async () => {
    const first = await exchanged();
    expect((await listTools(first.access)).status).toBe(200);
    const again = await token({
      grant_type: 'authorization_code',
      code: first.code,
      client_id: first.clientId,
      redirect_uri: REDIRECT,
      code_verifier: first.verifier,
    });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await listTools(first.access)).status).toBe(401);
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: first.refresh, client_id: first.clientId }))
        .status,
    ).toBe(400);
  });

  it('refuses a wrong verifier, another client, a wrong redirect URI or resource', async () => {
    for (const wrong of [
      { code_verifier: randomBytes(32).toString('base64url') },
      { client_id: 'mcp_someone_else' },
      { redirect_uri: 'http://127.0.0.1:1/other' },
      { resource: 'https://elsewhere.example/mcp' },
    ]) {
      const { clientId, code, verifier } = await allowedCode();
      const refused = await token({
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        ...wrong,
      });
      expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
    expect((await token({ grant_type: 'password', client_id: 'x' })).body).toMatchObject({
      error: 'unsupported_grant_type',
    });
  });

  it('refuses an expired code', async () => {
    const { clientId, code, verifier } = await allowedCode();
    await host.db.query("UPDATE mcp_codes SET expires_at = now() - interval '1 second'");
    const refused = await token({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('rotates refresh tokens; presenting a spent one revokes the grant', async () => {
    const first = await exchanged();
    const rotated = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh,
      client_id: first.clientId,
    });
    expect(rotated.status).toBe(200);
    const next = rotated.body as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(first.refresh);
    expect((await listTools(first.access)).status).toBe(401);
    expect((await listTools(next.access_token)).status).toBe(200);
    const reused = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh,
      client_id: first.clientId,
    });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await listTools(next.access_token)).status).toBe(401);
    const afterReuse = await token({
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_id: first.clientId,
    });
    expect(afterReuse.status).toBe(400);
  });

  it('revokes a token (RFC 7009), and answers 200 for an unknown one', async () => {
    const { access, refresh, clientId } = await exchanged();
    const revoke = (value: string) =>
      fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: value, client_id: clientId }),
      });
    expect((await revoke(refresh)).status).toBe(200);
    expect((await listTools(access)).status).toBe(401);
    expect((await revoke('pma_unknown')).status).toBe(200);
  });
});

describe('audience', () => {
  it('refuses an MCP token on every route but /mcp, with reason wrong_audience', async () => {
    const { access } = await exchanged();
    const platform = await host.call('/api/platform/tokens', {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(platform.status).toBe(401);
    expect(await platform.json()).toMatchObject({
      error: { code: 'auth_required', reason: 'wrong_audience' },
    });
    const action = await host.call(
      `/api/integrations/test-tools/actions/anything?accountId=${host.accountId}`,
      {
        headers: { authorization: `Bearer ${access}` },
        json: {},
      },
    );
    expect(action.status).toBe(401);
    expect(await action.json()).toMatchObject({ error: { code: 'unauthorized', reason: 'wrong_audience' } });
    const tools = await host.call(`/api/platform/accounts/${host.accountId}/tools`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(tools.status).toBe(401);
    // A platform token still works on /mcp with accountId.
    expect((await listTools(host.token, `?accountId=${host.accountId}`)).status).toBe(200);
  });
});

describe('client ID metadata documents', () => {
  it('fetches the document a URL client_id names and runs the flow with it', async () => {
    const clientId = `${documentsOrigin}/client.json`;
    const { verifier, challenge } = verifierAndChallenge();
    const { shown, redirectTo } = await consent(authorizeUrl(clientId, challenge));
    expect(shown).toMatchObject({
      client: { id: clientId, name: 'Document Assistant', metadataDocument: true },
    });
    const { status, body } = await token({
      grant_type: 'authorization_code',
      code: redirectTo.searchParams.get('code') ?? '',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(status).toBe(200);
    expect((await listTools(body.access_token as string)).status).toBe(200);
  });

  it('refuses a document over the size cap, one whose client_id differs, and one it cannot fetch', async () => {
    const { challenge } = verifierAndChallenge();
    const huge = await fetch(authorizeUrl(`${documentsOrigin}/huge.json`, challenge), { redirect: 'manual' });
    expect(huge.status).toBe(400);
    expect(await huge.json()).toMatchObject({ error: 'invalid_client' });
    const other = await fetch(authorizeUrl(`${documentsOrigin}/other.json`, challenge), {
      redirect: 'manual',
    });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: 'invalid_client' });
    const unreachable = await fetch(authorizeUrl('https://127.0.0.1:1/client.json', challenge), {
      redirect: 'manual',
    });
    expect(unreachable.status).toBe(400);
  });
});

describe('grants', () => {
  it('lists the user grants and revokes one', async () => {
    const clientId = (
      (await (await register({ client_name: 'Grant Assistant' })).json()) as { client_id: string }
    ).client_id;
    const { verifier, challenge } = verifierAndChallenge();
    const { redirectTo } = await consent(authorizeUrl(clientId, challenge));
    const access = (
      await token({
        grant_type: 'authorization_code',
        code: redirectTo.searchParams.get('code') ?? '',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      })
    ).body.access_token as string;
    expect((await listTools(access)).status).toBe(200);
    const listed = await host.call('/api/platform/mcp/grants');
    const grants = (
      (await listed.json()) as { data: { grants: { id: string; clientId: string; accountId: string }[] } }
    ).data.grants;
    const grant = grants.find((found) => found.clientId === clientId);
    expect(grant).toMatchObject({
      clientName: 'Grant Assistant',
      accountId: host.accountId,
      lastUsedAt: expect.any(String),
    });
    expect((await host.call(`/api/platform/mcp/grants/${grant?.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await listTools(access)).status).toBe(401);
    expect((await host.call(`/api/platform/mcp/grants/${grant?.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('logs', () => {
  it('never carry a code or token', () => {
    expect(secrets.length).toBeGreaterThan(10);
    const all = logs.join('\n');
    for (const secret of secrets) if (secret !== '') expect(all).not.toContain(secret);
    expect(all).toMatch(/"path":"\/oauth\/token"/);
  });
});

describe('registration limit', () => {
  // Last in the file: it spends this address's registrations for the minute.
  it('answers 429 with Retry-After past the registrations of one address a minute', async () => {
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 25 && refused === undefined; attempt++) {
      const response = await register();
      if (response.status === 429) refused = response;
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('client ID metadata document limit', () => {
  it('answers 429 past the document fetches of one address a minute', async () => {
    const { challenge } = verifierAndChallenge();
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 40 && refused === undefined; attempt++) {
      const response = await fetch(authorizeUrl(`${documentsOrigin}/client.json`, challenge), {
        redirect: 'manual',
      });
      if (response.status === 429) refused = response;
    }
    expect(refused?.status).toBe(429);
    expect(await refused?.json()).toMatchObject({ error: { code: 'rate_limited' } });
  });
});
