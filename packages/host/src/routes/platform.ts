import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { HostServices } from '../HostServices.js';
import { checkPassword, createToken, revokeToken } from '../store/users.js';
import { authenticate, checkStateChange, SESSION_COOKIE } from './_auth.js';
import { errorResponse } from './_errors.js';

const SESSION_DAYS = 14;

/** `/api/platform/...`: sign-in with email and password (session cookie), sign-out, who am I. */
export function platformRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.post('/sign-in', async (c) => {
    // Creates a session and reads none: a foreign Origin is refused (login CSRF), no Origin is curl.
    checkStateChange(services, c, { requireJson: true, credential: 'none' });
    let body: { email?: unknown; password?: unknown };
    try {
      body = await c.req.json();
    } catch {
      return errorResponse(c, 400, 'invalid_input', 'Send { "email": ..., "password": ... } as JSON.');
    }
    if (typeof body.email !== 'string' || typeof body.password !== 'string') {
      return errorResponse(c, 400, 'invalid_input', 'Send { "email": ..., "password": ... } as JSON.');
    }
    const user = await checkPassword(services.db, body.email, body.password);
    if (user === undefined) return errorResponse(c, 401, 'unauthorized', 'Wrong email or password.');
    const expiresAt = new Date(services.now().getTime() + SESSION_DAYS * 86_400_000);
    const { token } = await createToken(services.db, { userId: user.id, kind: 'session', expiresAt });
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: new URL(c.req.url).protocol === 'https:',
      path: '/',
      expires: expiresAt,
    });
    return c.json({ ok: true, data: { user } });
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
    const user = await authenticate(services, c);
    const { rows } = await services.db.query(
      `SELECT a.id, a.slug, a.name, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id
       WHERE m.user_id = $1 ORDER BY a.slug`,
      [user.id],
    );
    return c.json({ ok: true, data: { user, accounts: rows } });
  });

  return app;
}
