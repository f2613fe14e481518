import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { HostServices } from '../HostServices.js';
import { securityEvent } from '../security/securityEvent.js';
import { type User, userForToken } from '../store/users.js';
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

/** The 401 for a request without a valid credential, saying what to do for the kind it sent. */
export function unauthenticated(credential: { kind: 'token' | 'session' } | undefined): RouteError {
  return credential?.kind === 'token'
    ? new RouteError(
        401,
        'unauthorized',
        'The bearer token is unknown, expired or revoked; create a new token.',
      )
    : new RouteError(401, 'unauthorized', 'Sign in, or send Authorization: Bearer <token>.');
}

/** The signed-in user: `Authorization: Bearer <token>` or the session cookie. */
export async function authenticate(services: HostServices, c: Context): Promise<User> {
  const credential = credentialOf(c);
  const user = credential?.secret
    ? await userForToken(services.db, credential.secret, credential.kind)
    : undefined;
  if (user === undefined) throw unauthenticated(credential);
  return user;
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
