import { DEFAULT_RUNTIME } from '@platform/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './_host.js';

let host: TestHost;
let email: string;

beforeAll(async () => {
  host = await startTestHost();
  email = host.email;
});
afterAll(() => host.close());

const signIn = (password: string) =>
  host.app.request('/api/platform/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

describe('sign-in attempts per email', () => {
  it('answers 429 rate_limited with Retry-After past the limit, for that email only', async () => {
    const limited = await startTestHost({ limits: { signInAttemptsPerMinute: 3 } });
    try {
      const attempt = (who: string, password: string) =>
        limited.app.request('/api/platform/sign-in', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: who, password }),
        });
      const target = limited.email;
      for (let i = 0; i < 3; i++) expect((await attempt(target, `guess ${i}`)).status).toBe(401);
      // The right password too: the window is closed for this email, whatever is sent.
      const refused = await attempt(target.toUpperCase(), 'correct horse');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const { error } = (await refused.json()) as { error: { code: string; hint: string } };
      expect(error.code).toBe('rate_limited');
      expect(error.hint).toMatch(/^Wait \d+ seconds/);
      expect((await attempt('someone-else@example.test', 'x')).status).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe('sign-in and sessions', () => {
  it('signs in with a password and sets an HttpOnly, SameSite=Lax session cookie that authenticates API calls', async () => {
    const response = await signIn('correct horse');
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^platform_session=pls_/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const session = cookie.split(';')[0]!;
    const action = await host.app.request(
      `/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`,
      {
        method: 'POST',
        // What a browser sends from the host's own page (app.request() serves http://localhost).
        headers: { cookie: session, 'content-type': 'application/json', origin: 'http://localhost' },
        body: '{}',
      },
    );
    expect(action.status).toBe(200);
    const me = await host.app.request('/api/platform/me', { headers: { cookie: session } });
    expect(await me.json()).toMatchObject({
      ok: true,
      data: { user: { id: host.userId }, accounts: [{ id: host.accountId, role: 'owner' }] },
    });
    await host.app.request('/api/platform/sign-out', {
      method: 'POST',
      headers: { cookie: session, 'sec-fetch-site': 'same-origin' },
    });
    expect((await host.app.request('/api/platform/me', { headers: { cookie: session } })).status).toBe(401);
  });

  it('refuses a wrong password and a malformed body', async () => {
    const wrong = await signIn('wrong');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const malformed = await host.app.request('/api/platform/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(malformed.status).toBe(400);
  });

  it('stores only hashes of tokens and sessions', async () => {
    const { rows } = await host.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(rows.some((row) => row.token_hash === host.token)).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
  });

  it('answers health and unknown routes with the JSON envelope', async () => {
    expect(await (await host.app.request('/healthz')).json()).toEqual({
      ok: true,
      data: { status: 'ok', runtime: DEFAULT_RUNTIME },
    });
    const missing = await host.app.request('/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
