import type {
  McpConsentDecision,
  McpConsentResponse,
  McpGrantsResponse,
  RevokeMcpGrantResponse,
} from '@platform/wire';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { HostServices } from '../HostServices.js';
import { accountTools } from '../mcp/toolCatalog.js';
import { checkStateChange, hostOrigin, requireCredential } from '../routes/_auth.js';
import { bodyLimit } from '../routes/_bodyLimit.js';
import { RouteError } from '../routes/_errors.js';
import { jsonBody } from '../routes/_jsonBody.js';
import { limitPerAddress } from '../routes/_limitPerMinute.js';
import { findCredential, type User } from '../store/users.js';
import {
  AuthorizationRefusal,
  authorizationRequest,
  errorRedirect,
  mcpResource,
} from './_authorizationRequest.js';
import { ClientError, registerClient } from './clients.js';
import {
  createCode,
  exchangeCode,
  listGrants,
  refreshTokens,
  revokeToken,
  revokeUserGrant,
} from './grants.js';

/** Registrations from one client address a minute. */
export const REGISTRATIONS_PER_MINUTE = 20;
/** Token and revocation requests from one client address a minute. */
export const TOKEN_REQUESTS_PER_MINUTE = 60;

const CONSENT_USAGE =
  '{ "request": "<the authorization query string>", "accountId": "<account>", "decision": "allow" | "deny" }';

/**
 * OAuth for MCP clients (the MCP authorization spec): protected resource metadata (RFC 9728),
 * authorization server metadata (RFC 8414), registration (RFC 7591) or client ID metadata
 * documents, `/oauth/authorize` (PKCE S256, `resource` = `<base>/mcp`) handing over to the web
 * app's consent page, `/oauth/token` (codes, rotating refresh tokens), `/oauth/revoke` (RFC 7009),
 * the consent API the page calls, and the user's grants (`/api/platform/mcp/grants`).
 */
export function mcpAuthRoutes(services: HostServices): Hono {
  const app = new Hono();
  // Metadata, registration, token and revocation are called by clients from anywhere, browsers
  // included (the MCP Inspector): no cookie is read there, so any origin may call.
  const open = cors({ origin: '*', allowHeaders: ['content-type', 'authorization', 'mcp-protocol-version'] });
  for (const path of ['/.well-known/*', '/oauth/register', '/oauth/token', '/oauth/revoke'])
    app.use(path, open);
  const limit = bodyLimit({
    maxSize: services.limits.jsonBodyBytes,
    onError: (c) =>
      oauthError(
        c,
        413,
        'invalid_request',
        `The body is larger than ${services.limits.jsonBodyBytes} bytes.`,
      ),
  });

  const protectedResource = (c: Context) =>
    c.json({
      resource: mcpResource(services, c),
      authorization_servers: [hostOrigin(services, c)],
      bearer_methods_supported: ['header'],
      resource_name: 'Platform tools over MCP',
    });
  app.get('/.well-known/oauth-protected-resource/mcp', protectedResource);
  app.get('/.well-known/oauth-protected-resource', protectedResource);

  app.get('/.well-known/oauth-authorization-server', (c) => {
    const base = hostOrigin(services, c);
    return c.json({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
    });
  });

  app.post('/oauth/register', limit, async (c) => {
    await limitPerAddress(services, c, {
      name: 'mcp_registrations',
      limit: REGISTRATIONS_PER_MINUTE,
      what: 'client registrations',
      hint: (seconds) => `Wait ${seconds} seconds, then register again.`,
    });
    let body: Record<string, unknown>;
    try {
      body = await jsonBody(services.limits, c, '{ "client_name": "...", "redirect_uris": ["https://..."] }');
    } catch (error) {
      if (error instanceof RouteError)
        return oauthError(c, error.status, 'invalid_client_metadata', error.message);
      throw error;
    }
    try {
      return c.json(await registerClient(services, body), 201);
    } catch (error) {
      if (error instanceof ClientError) return oauthError(c, 400, error.code, error.message);
      throw error;
    }
  });

  app.get('/oauth/authorize', async (c) => {
    const query = new URL(c.req.url).searchParams;
    try {
      await authorizationRequest(services, c, query);
    } catch (error) {
      if (!(error instanceof AuthorizationRefusal)) throw error;
      const location = error.location();
      if (location !== undefined) return c.redirect(location, 302);
      return oauthError(c, 400, error.error, error.message);
    }
    // The consent page is the web app's; signed out, the sign-in page first, then back to it.
    const consent = `/oauth/consent?${query.toString()}`;
    const signedIn = (await sessionUser(services, c)) !== undefined;
    return c.redirect(signedIn ? consent : `/sign-in?next=${encodeURIComponent(consent)}`, 302);
  });

  app.get('/api/platform/mcp/consent', async (c) => {
    const user = await consentUser(services, c);
    const request = await consentRequest(services, c, new URL(c.req.url).searchParams);
    const accounts = await userAccounts(services, user);
    const data: McpConsentResponse = {
      client: {
        id: request.client.id,
        name: request.client.name,
        redirectHost: new URL(request.redirectUri).host,
        metadataDocument: request.client.metadataDocument,
      },
      resource: request.resource,
      accounts: await Promise.all(
        accounts.map(async (account) => ({
          ...account,
          tools: (await accountTools(services.db, account.id))
            .filter((tool) => tool.policy !== 'block')
            .map((tool) => ({
              name: tool.name,
              integration: tool.version.slug,
              description: tool.description,
              effect: tool.effect,
              sensitivity: tool.sensitivity,
              policy: tool.policy,
            })),
        })),
      ),
    };
    return c.json({ ok: true, data });
  });

  app.post('/api/platform/mcp/consent', async (c) => {
    checkStateChange(services, c, { requireJson: true });
    const user = await consentUser(services, c);
    const body = await jsonBody(services.limits, c, CONSENT_USAGE);
    if (typeof body.request !== 'string' || (body.decision !== 'allow' && body.decision !== 'deny')) {
      throw new RouteError(400, 'invalid_input', 'request must be a string and decision "allow" or "deny".', {
        hint: `Send ${CONSENT_USAGE} as JSON.`,
      });
    }
    const request = await consentRequest(services, c, new URLSearchParams(body.request));
    if (body.decision === 'deny') {
      return c.json({
        ok: true,
        data: {
          redirectTo: errorRedirect(
            request.redirectUri,
            'access_denied',
            'The person denied access.',
            request.state,
          ),
        },
      });
    }
    const accountRef = typeof body.accountId === 'string' ? body.accountId : '';
    const account = (await userAccounts(services, user)).find(
      (a) => a.id === accountRef || a.slug === accountRef,
    );
    if (account === undefined) {
      throw new RouteError(403, 'forbidden', `You are not a member of account "${accountRef}".`, {
        hint: 'Pick one of the accounts the consent page lists.',
      });
    }
    const code = await createCode(services.db, {
      clientId: request.client.id,
      userId: user.id,
      accountId: account.id,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      now: services.now(),
    });
    services.logger.info(
      { clientId: request.client.id, accountId: account.id, userId: user.id },
      'MCP client allowed',
    );
    const url = new URL(request.redirectUri);
    url.searchParams.set('code', code);
    if (request.state !== undefined) url.searchParams.set('state', request.state);
    const data: McpConsentDecision = { redirectTo: url.toString() };
    return c.json({ ok: true, data });
  });

  app.post('/oauth/token', limit, async (c) => {
    await limitPerAddress(services, c, {
      name: 'mcp_token_requests',
      limit: TOKEN_REQUESTS_PER_MINUTE,
      what: 'token requests',
      hint: (seconds) => `Wait ${seconds} seconds, then ask for a token again.`,
    });
    const form = await formOf(c);
    if (form === undefined)
      return oauthError(
        c,
        400,
        'invalid_request',
        'Send the token request as application/x-www-form-urlencoded.',
      );
    const clientId = form.get('client_id') ?? '';
    if (clientId === '') return oauthError(c, 401, 'invalid_client', 'client_id is missing.');
    const now = services.now();
    const grantType = form.get('grant_type');
    const outcome =
      grantType === 'authorization_code'
        ? await exchangeCode(services.db, {
            code: form.get('code') ?? '',
            clientId,
            redirectUri: form.get('redirect_uri') ?? '',
            verifier: form.get('code_verifier') ?? '',
            resource: form.get('resource') ?? undefined,
            now,
          })
        : grantType === 'refresh_token'
          ? await refreshTokens(services.db, { refreshToken: form.get('refresh_token') ?? '', clientId, now })
          : undefined;
    if (outcome === undefined) {
      return oauthError(
        c,
        400,
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token.',
      );
    }
    if ('error' in outcome) return oauthError(c, 400, outcome.error, outcome.description);
    c.header('Cache-Control', 'no-store');
    return c.json(outcome);
  });

  app.post('/oauth/revoke', limit, async (c) => {
    await limitPerAddress(services, c, {
      name: 'mcp_token_requests',
      limit: TOKEN_REQUESTS_PER_MINUTE,
      what: 'token requests',
      hint: (seconds) => `Wait ${seconds} seconds, then revoke again.`,
    });
    const form = await formOf(c);
    if (form === undefined)
      return oauthError(
        c,
        400,
        'invalid_request',
        'Send the revocation as application/x-www-form-urlencoded.',
      );
    const token = form.get('token') ?? '';
    // RFC 7009 2.2: an unknown token is answered 200 like a revoked one.
    if (token !== '')
      await revokeToken(services.db, {
        token,
        clientId: form.get('client_id') ?? undefined,
        now: services.now(),
      });
    return c.body(null, 200);
  });

  app.get('/api/platform/mcp/grants', async (c) => {
    const { user } = await requireCredential(services, c, 'read');
    const data: McpGrantsResponse = { grants: await listGrants(services.db, user.id) };
    return c.json({ ok: true, data });
  });

  app.delete('/api/platform/mcp/grants/:id', async (c) => {
    checkStateChange(services, c, { requireJson: false });
    const { user } = await requireCredential(services, c, 'publish');
    const id = c.req.param('id');
    if (!(await revokeUserGrant(services.db, user.id, id, services.now()))) {
      throw new RouteError(404, 'invalid_request', `You have no MCP grant "${id}".`, {
        hint: 'GET /api/platform/mcp/grants (or `platform mcp grants`) lists your grants.',
      });
    }
    services.logger.info({ grantId: id, userId: user.id }, 'MCP grant revoked');
    const data: RevokeMcpGrantResponse = { id, revoked: true };
    return c.json({ ok: true, data });
  });

  return app;
}

/** An RFC 6749 5.2 error body. */
function oauthError(c: Context, status: number, error: string, description: string): Response {
  c.header('Cache-Control', 'no-store');
  return c.json({ error, error_description: description }, status as 400);
}

async function formOf(c: Context): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) return undefined;
  return new URLSearchParams(await c.req.text());
}

/** The browser's signed-in user (session cookie), or undefined. */
async function sessionUser(services: HostServices, c: Context): Promise<User | undefined> {
  const cookie = c.req.header('cookie') ?? '';
  const secret = /(?:^|;\s*)platform_session=([^;]+)/.exec(cookie)?.[1];
  if (secret === undefined) return undefined;
  const found = await findCredential(services.db, decodeURIComponent(secret), 'cookie', services.now());
  return found.failure === undefined ? found.user : undefined;
}

/** The consent API's caller: a person signed in in the browser (the session cookie), nothing else. */
async function consentUser(services: HostServices, c: Context): Promise<User> {
  const { user, via } = await requireCredential(services, c, 'any');
  if (via !== 'cookie') {
    throw new RouteError(
      403,
      'forbidden',
      'Only a person signed in in the browser can allow an MCP client.',
      {
        hint: 'Open the authorization link in a browser and sign in there.',
      },
    );
  }
  return user;
}

async function consentRequest(services: HostServices, c: Context, query: URLSearchParams) {
  try {
    return await authorizationRequest(services, c, query);
  } catch (error) {
    if (!(error instanceof AuthorizationRefusal)) throw error;
    throw new RouteError(400, 'invalid_request', error.message, {
      oauthError: error.error,
      ...(error.location() === undefined ? {} : { redirectTo: error.location() }),
    });
  }
}

async function userAccounts(
  services: HostServices,
  user: User,
): Promise<{ id: string; slug: string; name: string; role: string }[]> {
  const { rows } = await services.db.query(
    `SELECT a.id, a.slug, a.name, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id
     WHERE m.user_id = $1 ORDER BY a.slug`,
    [user.id],
  );
  return rows as { id: string; slug: string; name: string; role: string }[];
}
