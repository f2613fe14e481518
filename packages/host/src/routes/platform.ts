import { signInRequestSchema } from '@platform/wire';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { HostServices } from '../HostServices.js';
import { totpEnabled } from '../store/totp.js';
import { checkPassword, createToken, revokeToken } from '../store/users.js';
import { checkStateChange, requireCredential, SESSION_COOKIE } from './_auth.js';
import { errorResponse } from './_errors.js';
import { parsedBody } from './_jsonBody.js';
import { limitPerAddress, limitPerMinute } from './_limitPerMinute.js';
import { deviceRoutes } from './device.js';
import { mfaRoutes } from './mfa.js';
import { sessionRoutes } from './sessions.js';
import { tokenRoutes } from './tokens.js';

const SESSION_DAYS = 14;
const SIGN_IN_USAGE = '{ "email": ..., "password": ... }';

/**
 * `/api/platform/...`: sign-in with email and password (session cookie; `mfa_pending` for a user
 * with TOTP), sign-out, who am I; device sign-in for the CLI, TOTP, personal access tokens.
 */
export function platformRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.post('/sign-in', async (c) => {
    // Creates a session and reads none: a foreign Origin is refused (login CSRF), no Origin is curl.
    checkStateChange(services, c, { requireJson: true, credential: 'none' });
    // Anonymous: capped per client address before the body is read (and per email below).
    await limitPerAddress(services, c, {
      name: 'sign_ins',
      limit: services.limits.signInsPerAddressPerMinute,
      what: 'sign-in attempts',
      hint: (seconds) => `Wait ${seconds} seconds, then sign in again.`,
    });
    const body = await parsedBody(services.limits, c, signInRequestSchema, SIGN_IN_USAGE);
    // Guessing one account's password is capped per email, across instances (scrypt is slow, but
    // not slow enough for an unbounded guess rate).
    const limit = services.limits.signInAttemptsPerMinute;
    await limitPerMinute(services, c, {
      bucket: { key: `sign-in:${body.email.trim().toLowerCase()}`, limit, name: 'sign_in_per_email' },
      fields: {},
      event: 'too many sign-in attempts for one email',
      message: `More than ${limit} sign-in attempts for this email in a minute.`,
      hint: (seconds) => `Wait ${seconds} seconds, then sign in again.`,
    });
    const user = await checkPassword(services.db, body.email, body.password);
    if (user === undefined) return errorResponse(c, 401, 'unauthorized', 'Wrong email or password.');
    const expiresAt = new Date(services.now().getTime() + SESSION_DAYS * 86_400_000);
    // The password is half of it for a user with TOTP: the session waits for POST /mfa/verify.
    const mfaPending = await totpEnabled(services.db, user.id);
    const { token } = await createToken(services.db, {
      userId: user.id,
      kind: 'session',
      expiresAt,
      mfaPending,
    });
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: new URL(c.req.url).protocol === 'https:',
      path: '/',
      expires: expiresAt,
    });
    return c.json({ ok: true, data: { user, mfa_pending: mfaPending } });
  });

  app.post('/sign-out', async (c) => {
    const session = getCookie(c, SESSION_COOKIE);
    // It revokes the cookie's session, whatever else the request carries.
    checkStateChange(services, c, { requireJson: false, ...(session ? { credential: 'session' } : {}) });
    if (session) await revokeToken(services.db, session);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ ok: true, data: null });
  });

  app.get('/me', async (c) => {
    // Every credential kind, whatever a token's scopes: the CLI checks who it is signed in as.
    const { user } = await requireCredential(services, c, 'any');
    const { rows } = await services.db.query(
      `SELECT a.id, a.slug, a.name, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id
       WHERE m.user_id = $1 ORDER BY a.slug`,
      [user.id],
    );
    return c.json({ ok: true, data: { user, accounts: rows } });
  });

  app.route('/device', deviceRoutes(services));
  app.route('/mfa', mfaRoutes(services));
  app.route('/sessions', sessionRoutes(services));
  app.route('/tokens', tokenRoutes(services));
  return app;
}
