import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { HostServices } from '../HostServices.js';
import { clientAddress } from '../security/clientAddress.js';
import { securityEvent } from '../security/securityEvent.js';
import { recordCredentialUse } from '../store/credentials.js';
import { isMcpToken } from '../store/ids.js';
import {
  type Credential,
  type CredentialFailure,
  type CredentialLookup,
  type CredentialVia,
  findCredential,
  type TokenScope,
  type User,
} from '../store/users.js';
import { RouteError, requestIdOf } from './_errors.js';

export const SESSION_COOKIE = 'platform_session';

/** The credential a request carries: a bearer token, else the session cookie. */
export function credentialOf(c: Context): { secret: string; kind: 'token' | 'session' } | undefined {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return { secret: match?.[1] ?? '', kind: 'token' };
  }
  const session = getCookie(c, SESSION_COOKIE);
  return session ? { secret: session, kind: 'session' } : undefined;
}

/**
 * Why a request is not signed in: no credential, the {@link CredentialFailure} of the one it sent,
 * or `wrong_audience`: an OAuth token issued to an MCP client, which only `/mcp` takes.
 */
export type AuthFailure = 'missing' | CredentialFailure | 'wrong_audience';

/**
 * The refusal of an MCP client's OAuth token (`pma_`, `pmr_`) on a route other than `/mcp`: 401
 * with the route's own code and `reason: 'wrong_audience'`.
 */
export function wrongAudience(code: 'unauthorized' | 'auth_required'): RouteError {
  return new RouteError(401, code, 'This token was issued to an MCP client; it works only on /mcp.', {
    reason: 'wrong_audience',
    hint: 'Use a platform token (POST /api/platform/tokens) or sign in; keep MCP tokens for /mcp.',
  });
}

/**
 * The 401 of the action, storage and OAuth routes (`unauthorized`) for a request without a valid
 * credential, saying what to do for the kind it sent, with `reason` and `hint`.
 */
export function unauthenticated(
  credential: { kind: 'token' | 'session' } | undefined,
  reason: AuthFailure = credential === undefined ? 'missing' : 'unknown',
): RouteError {
  if (reason === 'wrong_audience') return wrongAudience('unauthorized');
  if (reason === 'mfa_pending') {
    return new RouteError(401, 'unauthorized', 'This sign-in waits for an authenticator code.', {
      reason,
      hint: 'Send the current code from your authenticator app to POST /api/platform/mfa/verify with this credential.',
    });
  }
  return credential?.kind === 'token'
    ? new RouteError(
        401,
        'unauthorized',
        'The bearer token is unknown, expired or revoked; create a new token.',
        { reason, hint: 'Create a new token, or sign in again with `platform login`.' },
      )
    : new RouteError(401, 'unauthorized', 'Sign in, or send Authorization: Bearer <token>.', {
        reason,
        hint: 'Sign in, or send Authorization: Bearer <token>.',
      });
}

/** The signed-in credential's lookup for this request, or why there is none. */
async function lookUp(
  services: HostServices,
  c: Context,
): Promise<{
  sent: ReturnType<typeof credentialOf>;
  found: CredentialLookup | { readonly failure: 'wrong_audience' } | undefined;
}> {
  const sent = credentialOf(c);
  if (sent?.kind === 'token' && isMcpToken(sent.secret))
    return { sent, found: { failure: 'wrong_audience' } };
  const found = sent?.secret
    ? await findCredential(
        services.db,
        sent.secret,
        sent.kind === 'token' ? 'bearer' : 'cookie',
        services.now(),
      )
    : undefined;
  if (found !== undefined && found.failure === undefined) await noteUse(services, c, found.credential.id);
  return { sent, found };
}

/** Records a credential's use by this request (when and from where; at most once a minute each). */
export async function noteUse(services: HostServices, c: Context, credentialId: string): Promise<void> {
  await recordCredentialUse(services.db, {
    credentialId,
    now: services.now(),
    address: clientAddress(c, services.trustedProxies),
  });
}

/**
 * The signed-in user of the action, storage and OAuth routes: `Authorization: Bearer <token>` (a
 * personal access token or a CLI session) or the session cookie; one waiting for its TOTP code is
 * refused like a missing one (401 `unauthorized` with `reason`).
 */
export async function authenticate(services: HostServices, c: Context): Promise<User> {
  const { sent, found } = await lookUp(services, c);
  if (found === undefined) throw unauthenticated(sent, 'missing');
  if (found.failure !== undefined) throw unauthenticated(sent, found.failure);
  return found.user;
}

/**
 * The 401 `auth_required` of the platform API (the CLI's routes), with `reason` and an imperative
 * `hint`: sign in with the CLI again, or (mfa_pending) send the authenticator code.
 */
export function authRequired(
  services: HostServices,
  c: Context,
  reason: AuthFailure,
  via: CredentialVia | undefined,
): RouteError {
  if (reason === 'wrong_audience') return wrongAudience('auth_required');
  const origin = hostOrigin(services, c);
  const messages: Record<Exclude<AuthFailure, 'wrong_audience'>, string> = {
    missing: `You are not signed in to ${origin}.`,
    unknown: `${origin} does not know this credential.`,
    expired: `Your sign-in to ${origin} expired.`,
    revoked: `Your sign-in to ${origin} was revoked.`,
    mfa_pending: `Your sign-in to ${origin} waits for an authenticator code.`,
  };
  const hint =
    via === 'cookie'
      ? reason === 'mfa_pending'
        ? `Enter your authenticator code at ${origin}/device.`
        : `Sign in again at ${origin}/device.`
      : reason === 'mfa_pending'
        ? `Enter your authenticator code: \`platform login --host ${origin} --mfa-code <code>\`.`
        : `Run \`platform login --host ${origin}\`.`;
  return new RouteError(401, 'auth_required', messages[reason], { reason, hint });
}

/** The scopes of the platform API: `read` (list, look) and `publish` (submit, change). */
export type CliScope = TokenScope;

/**
 * The user and credential of a platform API request (see {@link requireCliUser}); for routes that
 * also care what kind of credential it is (sessions only, browser only). `scope: 'any'` takes every
 * token; `allowMfaPending` a session still waiting for its TOTP code (the route that takes the code).
 */
export async function requireCredential(
  services: HostServices,
  c: Context,
  scope: CliScope | 'any',
  options: { allowMfaPending?: boolean } = {},
): Promise<{ user: User; credential: Credential; via: CredentialVia }> {
  const { sent, found } = await lookUp(services, c);
  const via: CredentialVia | undefined =
    sent === undefined ? undefined : sent.kind === 'token' ? 'bearer' : 'cookie';
  if (found === undefined || via === undefined) throw authRequired(services, c, 'missing', via);
  if (found.failure === 'unknown') throw authRequired(services, c, 'unknown', via);
  if (found.failure !== undefined && !(found.failure === 'mfa_pending' && options.allowMfaPending)) {
    throw authRequired(services, c, found.failure, via);
  }
  const { scopes } = found.credential;
  if (scope !== 'any' && scopes !== undefined && !scopes.includes(scope)) {
    throw new RouteError(
      403,
      'forbidden',
      `This token may not ${scope}: its scopes are ${scopes.join(', ') || 'none'}.`,
      {
        scope,
        hint: `Create a token with --scope ${scope}.`,
      },
    );
  }
  return { user: found.user, credential: found.credential, via };
}

/**
 * The signed-in user of a platform API route (`/api/platform/...`, the CLI's): a CLI session or a
 * personal access token (`Authorization: Bearer`), or the browser's session cookie. 401
 * `auth_required` with `reason` (`missing`, `unknown`, `expired`, `revoked`, `mfa_pending`) and a
 * `hint`; 403 `forbidden` when a token lacks `scope`.
 * @example const user = await requireCliUser(services, c, 'publish');
 */
export async function requireCliUser(services: HostServices, c: Context, scope: CliScope): Promise<User> {
  return (await requireCredential(services, c, scope)).user;
}

/** The origin this host answers on. */
export function hostOrigin(services: HostServices, c: Context): string {
  return services.publicOrigin ?? new URL(c.req.url).origin;
}

/**
 * How a state-changing request is authenticated, for the Origin rule: `session` (the cookie a
 * browser attaches by itself), `token` (`Authorization: Bearer`, which a page on another origin
 * cannot send without a CORS preflight this host never grants), or `none` (sign-in, which creates
 * a session and reads no credential).
 */
export type StateChangeCredential = 'session' | 'token' | 'none';

/**
 * State-changing routes, against cross-site request forgery:
 * - an `Origin` other than this host's is refused, whatever the credential (for sign-in too: a
 *   cross-site sign-in would be a login CSRF);
 * - a request authenticated by the session cookie must also prove it comes from this host's own
 *   pages: `Origin` equal to the host origin, or `Sec-Fetch-Site: same-origin` (browsers send one
 *   or both; a request with neither is refused);
 * - a bearer-token request (or a sign-in) without `Origin` is accepted: scripts and curl send none;
 * - with `requireJson`, the body must be declared JSON (which a cross-site form cannot do).
 * Refusals by origin are logged as the `cross_origin` security event.
 * `credential` defaults to the kind `credentialOf` finds; routes that act on the cookie whatever
 * the request carries (sign-out) or on none (sign-in) say so.
 */
export function checkStateChange(
  services: HostServices,
  c: Context,
  options: { requireJson: boolean; credential?: StateChangeCredential },
): void {
  const credential: StateChangeCredential = options.credential ?? credentialOf(c)?.kind ?? 'none';
  const expected = hostOrigin(services, c);
  const origin = c.req.header('origin');
  const fetchSite = c.req.header('sec-fetch-site');
  const refuse = (reason: 'foreign_origin' | 'no_origin', message: string) => {
    securityEvent(
      services.logger,
      'cross_origin',
      {
        credential,
        reason,
        method: c.req.method,
        path: new URL(c.req.url).pathname,
        ...(origin === undefined ? {} : { origin }),
        ...(fetchSite === undefined ? {} : { secFetchSite: fetchSite }),
        requestId: requestIdOf(c),
      },
      'state change refused: not from this host',
    );
    return new RouteError(403, 'forbidden', message);
  };
  if (origin !== undefined && origin !== expected) {
    throw refuse(
      'foreign_origin',
      `Requests from ${origin} are not accepted; call the API from ${expected}, or from a script with Authorization: Bearer <token> and no Origin.`,
    );
  }
  if (credential === 'session' && origin === undefined && fetchSite !== 'same-origin') {
    throw refuse(
      'no_origin',
      `A request signed in with the session cookie must come from a page on ${expected} (send Origin: ${expected}); from a script, send Authorization: Bearer <token> instead of the cookie.`,
    );
  }
  if (options.requireJson && !/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    throw new RouteError(
      415,
      'unsupported_media_type',
      'Send the body as JSON with Content-Type: application/json.',
    );
  }
}
