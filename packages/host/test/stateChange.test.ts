import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToken } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';
import { captureLog } from './_logCapture.js';

// The CSRF rule of state-changing routes: a session-cookie request must show it comes from the
// host's own pages (Origin or Sec-Fetch-Site); a foreign Origin is refused for everyone; bearer
// tokens and sign-in from scripts need no Origin.

const HOST_ORIGIN = 'http://localhost'; // what app.request() serves
const log = captureLog();
let host: TestHost;
let session: string;
let email: string;

beforeAll(async () => {
  host = await startTestHost({ logger: log.logger });
  session = (await createToken(host.db, { userId: host.userId, kind: 'session' })).token;
  email = host.email;
});
afterAll(() => host?.close());
beforeEach(() => log.clear());

const actionPath = () => `/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`;
const withCookie = (headers: Record<string, string> = {}) =>
  host.app.request(actionPath(), {
    method: 'POST',
    headers: { cookie: `platform_session=${session}`, 'content-type': 'application/json', ...headers },
    body: '{}',
  });
const withBearer = (headers: Record<string, string> = {}) =>
  host.app.request(actionPath(), {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json', ...headers },
    body: '{}',
  });

describe('state changes authenticated by the session cookie', () => {
  it('refuses one without Origin or Sec-Fetch-Site with 403 forbidden saying what to do', async () => {
    const response = await withCookie();
    expect(response.status).toBe(403);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('forbidden');
    expect(error.message).toContain(`send Origin: ${HOST_ORIGIN}`);
    expect(error.message).toContain('Authorization: Bearer <token>');
    expect(log.security('cross_origin')).toEqual([
      expect.objectContaining({
        level: 40,
        event: 'security',
        kind: 'cross_origin',
        credential: 'session',
        reason: 'no_origin',
        method: 'POST',
        path: '/api/integrations/test-notes/actions/list-notes',
      }),
    ]);
    expect(log.text()).not.toContain(session);
    expect(log.text()).not.toContain(`accountId=${host.accountId}`);
  });

  it('accepts one with Sec-Fetch-Site: same-origin', async () => {
    expect((await withCookie({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('accepts one with the host Origin', async () => {
    expect((await withCookie({ origin: HOST_ORIGIN })).status).toBe(200);
    expect(log.security('cross_origin')).toEqual([]);
  });

  it('refuses one with a foreign Origin, even with Sec-Fetch-Site: same-origin', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
      { origin: 'null' },
    ]) {
      const response = await withCookie(headers);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'forbidden' } });
    }
    expect(log.security('cross_origin')).toEqual([
      expect.objectContaining({
        credential: 'session',
        reason: 'foreign_origin',
        origin: 'https://evil.example',
      }),
      expect.objectContaining({ reason: 'foreign_origin', secFetchSite: 'same-origin' }),
      expect.objectContaining({ reason: 'foreign_origin', origin: 'null' }),
    ]);
  });

  it('applies to activation changes and sign-out too', async () => {
    const activation = `/api/integrations/test-notes/activation?accountId=${host.accountId}`;
    const cookie = `platform_session=${session}`;
    const refusedDelete = await host.app.request(activation, { method: 'DELETE', headers: { cookie } });
    expect(refusedDelete.status).toBe(403);
    const refusedPost = await host.app.request(activation, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refusedPost.status).toBe(403);
    const accepted = await host.app.request(activation, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: HOST_ORIGIN },
      body: '{}',
    });
    expect(accepted.status).toBe(200);

    const other = (await createToken(host.db, { userId: host.userId, kind: 'session' })).token;
    const me = () =>
      host.app.request('/api/platform/me', { headers: { cookie: `platform_session=${other}` } });
    // A cross-site sign-out (logout CSRF) does not end the session; the cookie rule holds even
    // when the request also carries a bearer token, since sign-out acts on the cookie.
    for (const headers of [
      {},
      { authorization: `Bearer ${host.token}` },
      { origin: 'https://evil.example' },
    ]) {
      const refused = await host.app.request('/api/platform/sign-out', {
        method: 'POST',
        headers: { cookie: `platform_session=${other}`, ...headers },
      });
      expect(refused.status).toBe(403);
    }
    expect((await me()).status).toBe(200);
    const signedOut = await host.app.request('/api/platform/sign-out', {
      method: 'POST',
      headers: { cookie: `platform_session=${other}`, origin: HOST_ORIGIN },
    });
    expect(signedOut.status).toBe(200);
    expect((await me()).status).toBe(401);
  });
});

describe('state changes authenticated by a bearer token', () => {
  it('accepts one without Origin, and one with the host Origin', async () => {
    expect((await withBearer()).status).toBe(200);
    expect((await withBearer({ origin: HOST_ORIGIN })).status).toBe(200);
  });

  it('uses the bearer token, not the rule of a cookie sent alongside', async () => {
    expect((await withBearer({ cookie: `platform_session=${session}` })).status).toBe(200);
  });

  it('still refuses a foreign Origin', async () => {
    expect((await withBearer({ origin: 'https://evil.example' })).status).toBe(403);
    expect(log.security('cross_origin')).toEqual([
      expect.objectContaining({ credential: 'token', reason: 'foreign_origin' }),
    ]);
    expect(log.text()).not.toContain(host.token);
  });
});

describe('sign-in', () => {
  const signIn = (headers: Record<string, string>) =>
    host.app.request('/api/platform/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, password: 'correct horse' }),
    });

  it('works from a script without Origin or cookie, and from the host page', async () => {
    expect((await signIn({})).status).toBe(200);
    expect((await signIn({ origin: HOST_ORIGIN })).status).toBe(200);
    // A stale cookie does not make sign-in a cookie-authenticated request.
    expect((await signIn({ cookie: 'platform_session=pls_stale' })).status).toBe(200);
  });

  it('refuses a cross-site sign-in (login CSRF) without setting a cookie', async () => {
    const response = await signIn({ origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(log.security('cross_origin')).toEqual([
      expect.objectContaining({
        credential: 'none',
        reason: 'foreign_origin',
        path: '/api/platform/sign-in',
      }),
    ]);
    expect(log.text()).not.toContain('correct horse');
  });
});
