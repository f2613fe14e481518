import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';

// Device sign-in's sessions: what the approval page is shown, a configurable lifetime, tokens that
// end with the CLI session that minted them (checked at use), listing with last use, revoking.

const ORIGIN = 'http://localhost';
const START = Math.floor(Date.now() / 60_000) * 60_000;
let clock = START;
const advance = (seconds: number) => {
  clock += seconds * 1000;
};

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({
    projects: [],
    now: () => new Date(clock),
    limits: { devicePollIntervalSeconds: 0, cliSessionDays: 7 },
  });
});
afterAll(() => host.close());

type Envelope = { ok: boolean; data?: any; error?: any };
const json = async (response: Response) => (await response.json()) as Envelope;
const request = async (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  json(
    await host.app.request(path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const browser = (cookie: string) => ({ cookie, origin: ORIGIN });

async function signIn(): Promise<string> {
  const response = await host.app.request('/api/platform/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: host.email, password: 'correct horse' }),
  });
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** A CLI session through the whole device flow, approved from `cookie`'s browser session. */
async function cliSession(cookie: string, clientName = 'platform CLI 0.9 on laptop'): Promise<string> {
  const code = (await request('POST', '/api/platform/device/code', {}, { client_name: clientName })).data;
  const approved = await request('POST', '/api/platform/device/approve', browser(cookie), {
    user_code: code.user_code,
    decision: 'approve',
  });
  expect(approved.ok).toBe(true);
  const issued = await request('POST', '/api/platform/device/token', {}, { device_code: code.device_code });
  expect(issued.ok).toBe(true);
  return issued.data.token as string;
}

describe('device sign-in sessions', () => {
  it('shows a browser session who asked for a code, from where and when, and nobody else', async () => {
    const cookie = await signIn();
    const code = (
      await request(
        'POST',
        '/api/platform/device/code',
        {},
        { client_name: 'platform CLI 0.9 on\u202Elaptop' },
      )
    ).data;
    const shown = await request('GET', `/api/platform/device/requests/${code.user_code}`, browser(cookie));
    expect(shown).toEqual({
      ok: true,
      data: {
        user_code: code.user_code,
        // Format characters (here a right-to-left override) are removed; the rest is text.
        client_name: 'platform CLI 0.9 onlaptop',
        // A request through no socket (app.request) has no address to show.
        client_address: null,
        requested_at: new Date(clock).toISOString(),
        expires_at: new Date(clock + 600_000).toISOString(),
      },
    });
    const cli = await cliSession(cookie);
    expect(
      await request('GET', `/api/platform/device/requests/${code.user_code}`, bearer(cli)),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await request('GET', '/api/platform/device/requests/BCDF-GHJK', browser(cookie))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    // Looking a code up decides nothing.
    expect(
      await request('POST', '/api/platform/device/token', {}, { device_code: code.device_code }),
    ).toMatchObject({ ok: false, error: { code: 'authorization_pending' } });
  });

  it('lasts cliSessionDays, and its tokens end with it: expiry capped, revocation and expiry checked at use', async () => {
    const cookie = await signIn();
    const cli = await cliSession(cookie);
    const sessions = (await request('GET', '/api/platform/sessions', bearer(cli))).data.sessions;
    const mine = sessions.find((session: any) => session.current);
    expect(mine).toMatchObject({
      kind: 'cli',
      name: 'platform CLI 0.9 on laptop',
      expiresAt: new Date(clock + 7 * 86_400_000).toISOString(),
    });
    const minted = await request('POST', '/api/platform/tokens', bearer(cli), {
      name: 'ci',
      expires_days: 90,
    });
    expect(minted.data.expiresAt).toBe(mine.expiresAt);
    const listed = (await request('GET', '/api/platform/tokens', bearer(cli))).data.tokens;
    expect(listed.find((token: any) => token.id === minted.data.id)).toMatchObject({ sessionId: mine.id });

    // Expiry of the session, checked when the token is used (even were its own expiry later).
    await host.db.query('UPDATE sessions SET expires_at = $2 WHERE id = $1', [minted.data.id, null]);
    expect((await request('GET', '/api/platform/me', bearer(minted.data.token))).ok).toBe(true);
    await host.db.query('UPDATE sessions SET expires_at = $2 WHERE id = $1', [mine.id, new Date(clock)]);
    expect(await request('GET', '/api/platform/me', bearer(minted.data.token))).toMatchObject({
      ok: false,
      error: { code: 'auth_required', reason: 'expired' },
    });
    // Revocation of the session, checked at use too: set on the session alone, the token is refused.
    await host.db.query('UPDATE sessions SET expires_at = NULL, revoked_at = $2 WHERE id = $1', [
      mine.id,
      new Date(clock),
    ]);
    expect(await request('GET', '/api/platform/me', bearer(minted.data.token))).toMatchObject({
      ok: false,
      error: { code: 'auth_required', reason: 'revoked' },
    });
  });

  it('lists sessions and tokens with last use (written at most once a minute) and revokes them', async () => {
    const cookie = await signIn();
    const cli = await cliSession(cookie);
    const minted = (await request('POST', '/api/platform/tokens', bearer(cli), { name: 'ci' })).data;
    const usedAt = new Date(clock).toISOString();
    expect((await request('GET', '/api/platform/me', bearer(minted.token))).ok).toBe(true);
    advance(20);
    const first = (await request('GET', '/api/platform/sessions', bearer(cli))).data.sessions;
    const current = first.find((session: any) => session.current);
    expect(current.lastUsedAt).toBe(usedAt);
    expect(first.some((session: any) => session.kind === 'browser')).toBe(true);
    const token = (await request('GET', '/api/platform/tokens', bearer(cli))).data.tokens.find(
      (listed: any) => listed.id === minted.id,
    );
    expect(token).toMatchObject({ lastUsedAt: usedAt, sessionId: current.id });
    advance(61);
    await request('GET', '/api/platform/me', bearer(cli));
    const later = (await request('GET', '/api/platform/sessions', bearer(cli))).data.sessions;
    expect(later.find((session: any) => session.current).lastUsedAt).toBe(new Date(clock).toISOString());

    // Another user's session is not yours to revoke, and a personal access token is not a session.
    const other = await createUser(host.db, { email: `other-${clock}@example.test`, name: 'Other' });
    const { id: otherId } = await createToken(host.db, { userId: other.id, kind: 'cli' });
    expect(await request('DELETE', `/api/platform/sessions/${otherId}`, bearer(cli))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', hint: expect.stringContaining('/api/platform/sessions') },
    });
    expect(await request('DELETE', '/api/platform/sessions/current', bearer(minted.token))).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });

    // Revoking the CLI session revokes the tokens it minted.
    const revoked = await request('DELETE', '/api/platform/sessions/current', bearer(cli));
    expect(revoked).toEqual({
      ok: true,
      data: { id: current.id, revokedAt: new Date(clock).toISOString(), revokedTokens: [minted.id] },
    });
    for (const secret of [cli, minted.token]) {
      expect(await request('GET', '/api/platform/me', bearer(secret))).toMatchObject({
        ok: false,
        error: { code: 'auth_required', reason: 'revoked' },
      });
    }
    const remaining = (await request('GET', '/api/platform/sessions', browser(cookie))).data.sessions;
    expect(remaining.map((session: any) => session.id)).not.toContain(current.id);
    expect(
      (await request('GET', '/api/platform/tokens', browser(cookie))).data.tokens.map((t: any) => t.id),
    ).not.toContain(minted.id);
  });
});
