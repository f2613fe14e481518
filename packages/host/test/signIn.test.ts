import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/Command.js';
import { runCli } from '../src/cli/runCli.js';
import { createToken, createUser } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';
import { captureLog } from './_logCapture.js';

// The CLI's sign-in on the host: device authorization, TOTP, personal access tokens and the
// `auth_required` answers of the platform API. The host's clock is the test's, so expiry, poll
// intervals and TOTP steps move only when a test moves them.

const ORIGIN = 'http://localhost';
const LOGIN_HINT = `Run \`platform login --host ${ORIGIN}\`.`;
// Near the real time: cookies may not expire more than 400 days ahead of it.
const START = Math.floor(Date.now() / 60_000) * 60_000;
let clock = START;
const advance = (seconds: number) => {
  clock += seconds * 1000;
};

const log = captureLog();
let host: TestHost;
let email: string;

beforeAll(async () => {
  host = await startTestHost({
    projects: [],
    now: () => new Date(clock),
    logger: log.logger,
    limits: { devicePollIntervalSeconds: 1 },
  });
  email = host.email;
});
afterAll(() => host.close());
// Each test starts on a fresh minute of its own: rate-limit windows and TOTP steps never carry over.
beforeEach(() => {
  clock = Math.max(clock, START) + 3_600_000;
});

type Envelope = { ok: boolean; data?: any; error?: any };
const json = async (response: Response) => (await response.json()) as Envelope;

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return host.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
// What a browser sends from the host's own page.
const browser = (cookie: string) => ({ cookie, origin: ORIGIN });

async function signIn(
  address: string,
  password = 'correct horse',
): Promise<{ cookie: string; mfaPending: boolean }> {
  const response = await post('/api/platform/sign-in', { email: address, password });
  expect(response.status).toBe(200);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { cookie, mfaPending: (await json(response)).data.mfa_pending };
}

async function newUser(password = 'correct horse'): Promise<{ id: string; email: string }> {
  const address = `user-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const user = await createUser(host.db, { email: address, name: 'User', password });
  return { id: user.id, email: user.email };
}

const io: () => CliIo = () => ({ cwd: process.cwd(), env: {}, readStdin: async () => '', host });
async function admin(...argv: string[]): Promise<Envelope> {
  const outcome = await runCli(['admin', ...argv, '--json'], io());
  if (outcome.kind !== 'exit') throw new Error('expected an exit');
  return JSON.parse(outcome.stdout) as Envelope;
}

/** A well-formed code that none of the three steps the host accepts now would take. */
const notACode = (code: (offsetSteps?: number) => string) =>
  ['000000', '111111', '222222', '333333'].find(
    (candidate) => ![code(-1), code(), code(1)].includes(candidate),
  )!;

/** Enables TOTP through the admin command and returns a code generator on the host's clock. */
async function enableTotp(address: string): Promise<(offsetSteps?: number) => string> {
  const enabled = await admin('user', 'totp', '--email', address);
  expect(enabled).toMatchObject({ ok: true, data: { email: address } });
  expect(enabled.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
  const totp = new TOTP({ secret: Secret.fromBase32(enabled.data.secret), digits: 6, period: 30 });
  return (offsetSteps = 0) => totp.generate({ timestamp: clock + offsetSteps * 30_000 });
}

async function startDevice(): Promise<{ device_code: string; user_code: string; [key: string]: unknown }> {
  const response = await post('/api/platform/device/code', { client_name: 'platform CLI (test)' });
  expect(response.status).toBe(200);
  return (await json(response)).data;
}
const poll = (deviceCode: string) => post('/api/platform/device/token', { device_code: deviceCode });
const approve = (cookie: string, userCode: string, decision: 'approve' | 'deny' = 'approve') =>
  post('/api/platform/device/approve', { user_code: userCode, decision }, browser(cookie));

async function errorOf(response: Response, status: number): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  const body = await json(response);
  expect(body.ok).toBe(false);
  expect(typeof body.error.hint).toBe('string');
  return body.error;
}

describe('device sign-in', () => {
  it('issues a 30-day CLI session once a signed-in person approves the code on /device', async () => {
    const device = await startDevice();
    expect(device).toMatchObject({
      user_code: expect.stringMatching(/^[BCDFGHJKMNPQRSTVWXZ]{4}-[BCDFGHJKMNPQRSTVWXZ]{4}$/),
      verification_uri: `${ORIGIN}/device`,
      verification_uri_complete: `${ORIGIN}/device?code=${device.user_code}`,
      interval: 1,
      expires_in: 600,
    });
    const stored = await host.db.query('SELECT device_code_hash FROM device_codes WHERE user_code = $1', [
      device.user_code,
    ]);
    expect(stored.rows[0]!.device_code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]!.device_code_hash).not.toBe(device.device_code);

    const page = await host.app.request(`/device?code=${device.user_code.toLowerCase()}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain(`value="${device.user_code}"`);
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(html).toContain(`<script nonce="${nonce}">`);
    // Only a well-formed code is echoed into the page.
    expect(await (await host.app.request('/device?code="><script>')).text()).toContain('value=""');

    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({
      code: 'authorization_pending',
    });
    const { cookie } = await signIn(email);
    advance(1);
    const approved = await approve(cookie, device.user_code.replace('-', ' ').toLowerCase());
    expect(await json(approved)).toEqual({
      ok: true,
      data: { user_code: device.user_code, decision: 'approve', client_name: 'platform CLI (test)' },
    });
    const issued = await poll(device.device_code);
    expect(issued.status).toBe(200);
    const { data } = await json(issued);
    expect(data).toEqual({
      token: expect.stringMatching(/^plc_/),
      token_type: 'Bearer',
      expires_at: new Date(clock + 30 * 86_400_000).toISOString(),
      mfa_pending: false,
      user: { id: host.userId, email, name: 'Owner' },
    });
    const me = await host.app.request('/api/platform/me', { headers: bearer(data.token) });
    expect(await json(me)).toMatchObject({ ok: true, data: { user: { id: host.userId } } });

    // Single use: the next poll finds nothing to hand over, and the code cannot be answered again.
    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({ code: 'expired_token' });
    expect(await errorOf(await approve(cookie, device.user_code), 409)).toMatchObject({ code: 'conflict' });

    // The session ends after 30 days.
    advance(30 * 86_400);
    expect(
      await errorOf(await host.app.request('/api/platform/tokens', { headers: bearer(data.token) }), 401),
    ).toMatchObject({ code: 'auth_required', reason: 'expired', hint: LOGIN_HINT });
  });

  it('answers slow_down to a poll sooner than the interval', async () => {
    const device = await startDevice();
    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({
      code: 'authorization_pending',
    });
    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({
      code: 'slow_down',
      interval: 1,
      hint: 'Wait at least 1 seconds between polls.',
    });
    advance(1);
    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({
      code: 'authorization_pending',
    });
  });

  it('answers access_denied once the code is denied', async () => {
    const device = await startDevice();
    const { cookie } = await signIn(email);
    expect(await json(await approve(cookie, device.user_code, 'deny'))).toMatchObject({
      ok: true,
      data: { decision: 'deny' },
    });
    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({ code: 'access_denied' });
    advance(1);
    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({ code: 'access_denied' });
  });

  it('expires a code after ten minutes, for the poller and the approver', async () => {
    const device = await startDevice();
    const { cookie } = await signIn(email);
    advance(600);
    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({ code: 'expired_token' });
    expect(await errorOf(await approve(cookie, device.user_code), 400)).toMatchObject({
      code: 'expired_token',
    });
    expect(await errorOf(await poll('pld_unknown'), 400)).toMatchObject({ code: 'expired_token' });
    expect(await errorOf(await approve(cookie, 'BBBB-BBBB'), 404)).toMatchObject({ code: 'invalid_request' });
    expect(await errorOf(await approve(cookie, 'not a code'), 400)).toMatchObject({ code: 'invalid_input' });
  });

  it('approves only from a verified browser session on this origin', async () => {
    const device = await startDevice();
    const { cookie } = await signIn(email);
    // No Origin with the cookie: not from the host's page.
    const noOrigin = await post(
      '/api/platform/device/approve',
      { user_code: device.user_code, decision: 'approve' },
      {
        cookie,
      },
    );
    expect(noOrigin.status).toBe(403);
    const foreign = await post(
      '/api/platform/device/approve',
      { user_code: device.user_code, decision: 'approve' },
      { cookie, origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    // A token (or CLI session) cannot mint a CLI session.
    const byToken = await post(
      '/api/platform/device/approve',
      { user_code: device.user_code, decision: 'approve' },
      bearer(host.token),
    );
    expect(await errorOf(byToken, 403)).toMatchObject({ code: 'forbidden' });
    expect(
      await errorOf(
        await post(
          '/api/platform/device/approve',
          { user_code: device.user_code, decision: 'approve' },
          { origin: ORIGIN },
        ),
        401,
      ),
    ).toMatchObject({ code: 'auth_required', reason: 'missing' });
    // Still pending: none of those answered it.
    expect(await errorOf(await poll(device.device_code), 400)).toMatchObject({
      code: 'authorization_pending',
    });
  });
});

describe('auth_required and scopes on the platform API', () => {
  const tokens = (headers: Record<string, string> = {}) =>
    host.app.request('/api/platform/tokens', { headers });

  it('says why a credential does not sign in, with a hint', async () => {
    expect(await errorOf(await tokens(), 401)).toMatchObject({
      code: 'auth_required',
      reason: 'missing',
      hint: LOGIN_HINT,
    });
    expect(await errorOf(await tokens(bearer('plt_unknown')), 401)).toMatchObject({
      code: 'auth_required',
      reason: 'unknown',
      hint: LOGIN_HINT,
    });
    const expired = await createToken(host.db, {
      userId: host.userId,
      kind: 'cli',
      expiresAt: new Date(clock - 1000),
    });
    expect(await errorOf(await tokens(bearer(expired.token)), 401)).toMatchObject({
      reason: 'expired',
      hint: LOGIN_HINT,
    });
    const revoked = await createToken(host.db, { userId: host.userId, kind: 'token', scopes: ['read'] });
    expect((await tokens(bearer(revoked.token))).status).toBe(200);
    expect(await admin('token', 'revoke', revoked.id)).toMatchObject({
      ok: true,
      data: { id: revoked.id, kind: 'token', email },
    });
    expect(await errorOf(await tokens(bearer(revoked.token)), 401)).toMatchObject({
      reason: 'revoked',
      hint: LOGIN_HINT,
    });
    const pending = await createToken(host.db, { userId: host.userId, kind: 'cli', mfaPending: true });
    expect(await errorOf(await tokens(bearer(pending.token)), 401)).toMatchObject({
      reason: 'mfa_pending',
      hint: `Enter your authenticator code: \`platform login --host ${ORIGIN} --mfa-code <code>\`.`,
    });
    // The action and storage routes refuse a session waiting for its code too.
    const action = await post(
      '/api/integrations/test-notes/actions/list-notes?accountId=x',
      {},
      bearer(pending.token),
    );
    expect(await errorOf(action, 401)).toMatchObject({ code: 'unauthorized', reason: 'mfa_pending' });
  });

  it('lets a token do only what its scopes allow', async () => {
    const { cookie } = await signIn(email);
    const created = await post(
      '/api/platform/tokens',
      { name: 'ci read', scopes: ['read'] },
      browser(cookie),
    );
    expect(created.status).toBe(201);
    const read = (await json(created)).data;
    expect(read).toMatchObject({
      token: expect.stringMatching(/^plt_/),
      name: 'ci read',
      scopes: ['read'],
      expiresAt: null,
    });
    const publish = (
      await json(
        await post(
          '/api/platform/tokens',
          { name: 'ci publish', scopes: ['publish'], expires_days: 7 },
          browser(cookie),
        ),
      )
    ).data;
    expect(publish.expiresAt).toBe(new Date(clock + 7 * 86_400_000).toISOString());

    const listed = await json(await tokens(bearer(read.token)));
    expect(listed.data.tokens).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: read.id, name: 'ci read', scopes: ['read'] }),
        expect.objectContaining({ id: publish.id, scopes: ['publish'] }),
      ]),
    );
    expect(JSON.stringify(listed)).not.toContain(read.token);
    // A read token on a publish route (revoking), and a publish token on a read route.
    const refused = await host.app.request(`/api/platform/tokens/${publish.id}`, {
      method: 'DELETE',
      headers: bearer(read.token),
    });
    expect(await errorOf(refused, 403)).toMatchObject({
      code: 'forbidden',
      hint: 'Create a token with --scope publish.',
    });
    expect(await errorOf(await tokens(bearer(publish.token)), 403)).toMatchObject({
      hint: 'Create a token with --scope read.',
    });
    // Who am I works whatever the scopes.
    expect((await host.app.request('/api/platform/me', { headers: bearer(publish.token) })).status).toBe(200);
    // A token never makes tokens.
    expect(
      await errorOf(await post('/api/platform/tokens', { name: 'x' }, bearer(publish.token)), 403),
    ).toMatchObject({
      code: 'forbidden',
    });
    expect(
      await errorOf(
        await post('/api/platform/tokens', { name: '', scopes: ['admin'] }, browser(cookie)),
        400,
      ),
    ).toMatchObject({
      code: 'invalid_input',
    });

    const revoked = await host.app.request(`/api/platform/tokens/${read.id}`, {
      method: 'DELETE',
      headers: bearer(publish.token),
    });
    expect(await json(revoked)).toEqual({
      ok: true,
      data: { id: read.id, revokedAt: new Date(clock).toISOString() },
    });
    expect(await errorOf(await tokens(bearer(read.token)), 401)).toMatchObject({ reason: 'revoked' });
    const other = await newUser();
    const foreign = await createToken(host.db, { userId: other.id, kind: 'token' });
    const notYours = await host.app.request(`/api/platform/tokens/${foreign.id}`, {
      method: 'DELETE',
      headers: bearer(publish.token),
    });
    expect(await errorOf(notYours, 404)).toMatchObject({ code: 'invalid_request' });
  });

  it('creates scoped tokens and revokes them with the admin commands', async () => {
    const both = await admin('token', 'create', '--email', email, '--name', 'ci');
    expect(both.data).toMatchObject({ name: 'ci', scopes: ['publish', 'read'] });
    const readOnly = await admin('token', 'create', '--email', email, '--scope', 'read');
    expect(readOnly.data.scopes).toEqual(['read']);
    expect((await tokens(bearer(readOnly.data.token))).status).toBe(200);
    const deleteBoth = await host.app.request(`/api/platform/tokens/${both.data.id}`, {
      method: 'DELETE',
      headers: bearer(readOnly.data.token),
    });
    expect(deleteBoth.status).toBe(403);
    expect(await admin('token', 'create', '--email', email, '--scope', 'admin')).toMatchObject({
      ok: false,
      error: { code: 'usage' },
    });
    expect(await admin('token', 'revoke', both.data.id)).toMatchObject({
      ok: true,
      data: { id: both.data.id },
    });
    expect(await errorOf(await tokens(bearer(both.data.token)), 401)).toMatchObject({ reason: 'revoked' });
    expect(await admin('token', 'revoke', 'no-such-id')).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('TOTP', () => {
  it('makes sign-in wait for a code, accepts a real one once, and logs a wrong one without the code', async () => {
    const user = await newUser();
    const code = await enableTotp(user.email);
    const { rows } = await host.db.query<{ totp_secret: string }>(
      'SELECT totp_secret FROM users WHERE id = $1',
      [user.id],
    );
    expect(rows[0]!.totp_secret).toMatch(/^v1\./);

    const first = await signIn(user.email);
    expect(first.mfaPending).toBe(true);
    expect(
      await errorOf(await host.app.request('/api/platform/me', { headers: { cookie: first.cookie } }), 401),
    ).toMatchObject({ code: 'auth_required', reason: 'mfa_pending' });

    log.clear();
    const wrongCode = notACode(code);
    const wrong = await post('/api/platform/mfa/verify', { code: wrongCode }, browser(first.cookie));
    expect(await errorOf(wrong, 401)).toMatchObject({ code: 'auth_required', reason: 'mfa_invalid' });
    expect(log.security('mfa_failed')).toEqual([
      expect.objectContaining({ userId: user.id, outcome: 'invalid', purpose: 'verify' }),
    ]);
    for (const event of log.security('mfa_failed')) {
      expect(event).not.toHaveProperty('code');
      expect(Object.values(event)).not.toContain(wrongCode);
    }

    const good = code();
    expect(
      await json(await post('/api/platform/mfa/verify', { code: good }, browser(first.cookie))),
    ).toMatchObject({
      ok: true,
      data: { mfa_pending: false, user: { id: user.id } },
    });
    expect((await host.app.request('/api/platform/me', { headers: { cookie: first.cookie } })).status).toBe(
      200,
    );

    // The same code again, for another sign-in: refused.
    const second = await signIn(user.email);
    const replayed = await post('/api/platform/mfa/verify', { code: good }, browser(second.cookie));
    expect(await errorOf(replayed, 401)).toMatchObject({
      reason: 'mfa_invalid',
      message: 'This authenticator code was already used.',
    });
    expect(log.security('mfa_failed').at(-1)).toMatchObject({ outcome: 'replayed' });
    advance(30);
    expect((await post('/api/platform/mfa/verify', { code: code() }, browser(second.cookie))).status).toBe(
      200,
    );
  });

  it('signs the CLI in mfa_pending until it sends a code with its session', async () => {
    const user = await newUser();
    const code = await enableTotp(user.email);
    const browserSession = await signIn(user.email);
    // The page refuses to approve before the browser session is verified.
    const device = await startDevice();
    expect(await errorOf(await approve(browserSession.cookie, device.user_code), 401)).toMatchObject({
      reason: 'mfa_pending',
    });
    expect(
      (await post('/api/platform/mfa/verify', { code: code() }, browser(browserSession.cookie))).status,
    ).toBe(200);
    expect((await approve(browserSession.cookie, device.user_code)).status).toBe(200);
    const issued = (await json(await poll(device.device_code))).data;
    expect(issued.mfa_pending).toBe(true);
    expect(
      await errorOf(await host.app.request('/api/platform/tokens', { headers: bearer(issued.token) }), 401),
    ).toMatchObject({
      reason: 'mfa_pending',
      hint: `Enter your authenticator code: \`platform login --host ${ORIGIN} --mfa-code <code>\`.`,
    });
    const wrong = await post('/api/platform/mfa/verify', { code: notACode(code) }, bearer(issued.token));
    expect(await errorOf(wrong, 401)).toMatchObject({
      reason: 'mfa_invalid',
      hint: `Enter the current code from your authenticator app: \`platform login --host ${ORIGIN} --mfa-code <code>\`.`,
    });
    // The code of the next step (within the ±1 window) is still good.
    expect((await post('/api/platform/mfa/verify', { code: code(1) }, bearer(issued.token))).status).toBe(
      200,
    );
    expect((await host.app.request('/api/platform/tokens', { headers: bearer(issued.token) })).status).toBe(
      200,
    );
  });

  it('enrols from a verified session: secret, confirmation with a code, then sign-ins wait for one', async () => {
    const user = await newUser();
    const { cookie, mfaPending } = await signIn(user.email);
    expect(mfaPending).toBe(false);
    const started = await json(
      await host.app.request('/api/platform/mfa/totp', { method: 'POST', headers: browser(cookie) }),
    );
    expect(started.data.otpauth_url).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const totp = new TOTP({ secret: Secret.fromBase32(started.data.secret) });
    // Not enabled until confirmed.
    expect((await signIn(user.email)).mfaPending).toBe(false);
    const wrong = await post('/api/platform/mfa/totp/confirm', { code: 'abcdef' }, browser(cookie));
    expect(await errorOf(wrong, 401)).toMatchObject({ reason: 'mfa_invalid' });
    const confirmed = await post(
      '/api/platform/mfa/totp/confirm',
      { code: totp.generate({ timestamp: clock }) },
      browser(cookie),
    );
    expect(await json(confirmed)).toEqual({ ok: true, data: { enabled: true } });
    expect((await signIn(user.email)).mfaPending).toBe(true);
    const again = await host.app.request('/api/platform/mfa/totp', {
      method: 'POST',
      headers: browser(cookie),
    });
    expect(await errorOf(again, 409)).toMatchObject({ code: 'conflict' });
    // A personal access token cannot enrol.
    const token = await createToken(host.db, { userId: user.id, kind: 'token' });
    const byToken = await host.app.request('/api/platform/mfa/totp', {
      method: 'POST',
      headers: bearer(token.token),
    });
    expect(await errorOf(byToken, 403)).toMatchObject({ code: 'forbidden' });
  });

  it('limits the codes tried per user per minute', async () => {
    const user = await newUser();
    await enableTotp(user.email);
    const { cookie } = await signIn(user.email);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push((await post('/api/platform/mfa/verify', { code: 'abcdef' }, browser(cookie))).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    const limited = await post('/api/platform/mfa/verify', { code: 'abcdef' }, browser(cookie));
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await errorOf(limited, 429)).toMatchObject({ code: 'rate_limited' });
  });
});
