import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { HostServices } from '../HostServices.js';
import { type User, userForToken } from '../store/users.js';
import { RouteError } from './_errors.js';

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
 * State-changing routes: a browser request from another origin is refused, and the body must be
 * declared JSON (which a cross-site form cannot do).
 */
export function checkStateChange(
  services: HostServices,
  c: Context,
  options: { requireJson: boolean },
): void {
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== hostOrigin(services, c)) {
    throw new RouteError(
      403,
      'forbidden',
      `Requests from ${origin} are not accepted; call the API from ${hostOrigin(services, c)}.`,
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
