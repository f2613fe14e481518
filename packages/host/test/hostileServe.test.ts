import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHost } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSecret } from '../src/store/secrets.js';
import { addMembership, createAccount, createToken, createUser } from '../src/store/users.js';
import { childEnv, type ServeProcess, startServe, tempDir } from './_cli.js';
import { installFixture } from './_host.js';

// A hostile and a victim integration on one real `platform-host serve` (isolated runtime, two
// runners), each activated on its own account, attacked the way a reviewer attacked `npm start`.
// Everything is read from outside: HTTP answers, the runners' CPU in /proc, and the serve output.
const VICTIM_TOKEN = 'victim-oauth-token-5d1e09';
const VICTIM_NOTE = 'victim note b7c4';
const ADMIN_SECRET = 'admin-only-value-e81f';
const URL_SECRET = 'url-secret-3a9f';
const PASSWORD = 'correct horse battery';

interface Side {
  readonly accountId: string;
  readonly token: string;
  readonly email: string;
}

let dir: { path: string; cleanup(): Promise<void> };
let serve: ServeProcess;
let hostile: Side;
let victim: Side;
let hostileSourceId: string;

const call = (side: Side, slug: string, action: string, json: unknown = {}) =>
  fetch(`${serve.baseUrl}/api/integrations/${slug}/actions/${action}?accountId=${side.accountId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${side.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
const data = async (response: Response) => {
  const body = (await response.json()) as { ok: boolean; data?: any; error?: unknown };
  if (!body.ok) throw new Error(`expected ok, got ${response.status} ${JSON.stringify(body)}`);
  return body.data;
};
const logLines = () =>
  serve
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);

async function until<T>(read: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// The runner processes serve forked, and their CPU time (user + system) in ms, from /proc.
async function runnerCpuMs(): Promise<{ pids: number[]; ms: number }> {
  const pids: number[] = [];
  let ticks = 0;
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== serve.child.pid) continue;
      if (!(await readFile(`/proc/${name}/cmdline`, 'utf8')).includes('runner.mjs')) continue;
      pids.push(Number(name));
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return { pids, ms: ticks * 10 };
}

beforeAll(async () => {
  dir = await tempDir('hostile-serve');
  const dataDir = join(dir.path, 'data');
  // Seeded straight into the data folder, then served by a separate `serve` process.
  const host = await createHost({ dataDir, runtime: 'in-process', logger: pino({ level: 'silent' }) });
  try {
    const side = async (name: string, project: string): Promise<Side & { userId: string }> => {
      const email = `${name}@example.test`;
      const user = await createUser(host.db, { email, name, password: PASSWORD });
      const account = await createAccount(host.db, { slug: `${name}-co`, name: `${name} Co` });
      await addMembership(host.db, account.id, user.id, 'owner');
      const versions = await installFixture(host, project, { accountId: account.id, userId: user.id });
      hostileSourceId =
        versions.find((version) => version.slug === 'test-hostile')?.sourceId ?? hostileSourceId;
      const { token } = await createToken(host.db, { userId: user.id, kind: 'token', name: 'test' });
      return { accountId: account.id, token, email, userId: user.id };
    };
    hostile = await side('mallory', 'hostile');
    victim = await side('alice', 'victim');
    await writeSecret(host.db, host.services.secretBox, {
      scope: { slug: 'test-hostile', accountId: hostile.accountId, sourceId: hostileSourceId },
      tier: 'global',
      name: 'ADMIN_ONLY',
      value: ADMIN_SECRET,
    });
  } finally {
    await host.close();
  }
  serve = await startServe(
    ['--data', dataDir, '--no-examples', '--port', '0'],
    childEnv({ PLATFORM_RUNNERS: '2' }),
  );
  expect(
    await data(await call(victim, 'test-victim', 'remember', { token: VICTIM_TOKEN, note: VICTIM_NOTE })),
  ).toEqual({
    kept: true,
  });
}, 120_000);

afterAll(async () => {
  await serve?.stop();
  await dir?.cleanup();
});

describe('hostile integration on a running serve', { timeout: 60_000 }, () => {
  it("reaches no secret, storage value or fetch of the victim's running calls, by any call id", async () => {
    // Two victim calls at once, so each of the two runners holds one while the attack runs.
    const holds = [
      call(victim, 'test-victim', 'hold', { ms: 6000 }),
      call(victim, 'test-victim', 'hold', { ms: 6000 }),
    ];
    const victimIds = await until(() => {
      const ids = logLines()
        .filter((line) => line.integration === 'test-victim' && /^call-id /.test(line.msg))
        .map((line) => String(line.msg).slice('call-id '.length));
      return ids.length >= 2 ? ids : undefined;
    }, "the victim calls' ids");
    const { pids } = await runnerCpuMs();
    expect(pids.length).toBe(2);

    const attack = await data(await call(hostile, 'test-hostile', 'borrow', { ids: victimIds }));
    expect(attack.leaked).toBe(true);
    for (const id of victimIds) expect(Object.keys(attack.outcomes)).toContain(id);
    for (const [id, forged] of Object.entries(attack.outcomes as Record<string, any>)) {
      for (const step of ['secret', 'stored', 'wrote', 'fetched']) {
        expect(forged.data?.[step], `${id} ${step}`).toEqual({
          error: 'refused: this isolate is not running that call',
        });
      }
    }
    expect(JSON.stringify(attack)).not.toContain(VICTIM_TOKEN);
    expect(JSON.stringify(attack)).not.toContain(VICTIM_NOTE);

    // The victim's calls carry on with their own secret and note, untouched.
    for (const hold of holds) expect(await data(await hold)).toEqual({ token: 'present', note: VICTIM_NOTE });
    const stored = await fetch(
      `${serve.baseUrl}/api/integrations/test-victim/storage?accountId=${victim.accountId}&keys=settings`,
      { headers: { authorization: `Bearer ${victim.token}` } },
    );
    expect(await data(stored)).toEqual({ settings: VICTIM_NOTE });
    const victimLines = logLines().filter((line) => line.integration === 'test-victim');
    expect(victimLines.some((line) => /hostile|api\.victim\.test/.test(String(line.msg)))).toBe(false);
    // An operator sees the attack, attributed to the hostile integration.
    const events = logLines().filter(
      (line) => line.event === 'security' && line.kind === 'capability_borrowing',
    );
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event).toMatchObject({ integration: 'test-hostile', version: 1 });
    expect(pids).toContain(events[0]!.runner);
  });

  for (const action of ['leftover-timers', 'leftover-loop']) {
    it(`${action}: nothing burns CPU after the call, and the next call answers at once`, async () => {
      expect(await data(await call(hostile, 'test-hostile', action))).toHaveProperty('left');
      // The isolate runs what V8 posted (a settled compile) when it next gets work: give it some.
      expect(await data(await call(hostile, 'test-hostile', 'ok'))).toMatchObject({ fine: true });
      await new Promise((resolve) => setTimeout(resolve, 600));
      const before = await runnerCpuMs();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const after = await runnerCpuMs();
      // A loop left running would add about 1,500 ms.
      expect(after.ms - before.ms).toBeLessThan(500);
      const started = Date.now();
      expect(await data(await call(hostile, 'test-hostile', 'ok'))).toMatchObject({ fine: true });
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  }

  it('says which integration left work running', async () => {
    const line = await until(
      () => logLines().find((entry) => entry.kind === 'leftover_work'),
      'the leftover warning',
    );
    expect(line).toMatchObject({ integration: 'test-hostile', version: 1 });
  });

  it('keeps one call within its log budget', async () => {
    const before = serve.output().length;
    expect(await data(await call(hostile, 'test-hostile', 'flood', { lines: 3000, bytes: 2000 }))).toEqual({
      logged: 6000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const added = serve.output().length - before;
    // 12 MB attempted; the budget is 64 KiB of partner text plus each line's JSON frame.
    expect(added).toBeLessThan(256 * 1024);
    const truncated = logLines().filter(
      (line) => line.event === undefined && /^partner log truncated/.test(String(line.msg)),
    );
    expect(truncated.length).toBe(1);
    expect(logLines().some((line) => line.event === 'security' && line.kind === 'log_budget')).toBe(true);
  });

  it('redacts URLs with userinfo and a query on every partner log path', async () => {
    const response = await call(hostile, 'test-hostile', 'log-url', { secret: URL_SECRET });
    expect(response.status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines = logLines().filter(
      (line) => line.integration === 'test-hostile' && String(line.msg).includes('api.acme.com'),
    );
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.some((line) => String(line.msg) === 'calling https://api.acme.com/v1?...')).toBe(true);
    expect(serve.output()).not.toContain(URL_SECRET);
  });

  it('gives the handler an EgressDeniedError with code, origin and reason, and instanceof', async () => {
    const seen = await data(await call(hostile, 'test-hostile', 'error-classes'));
    expect(seen.fetch).toMatchObject({
      name: 'EgressDeniedError',
      code: 'EGRESS_DENIED',
      origin: 'https://localhost',
      reason: expect.any(String),
      instanceOf: { EgressDeniedError: true, Error: true },
    });
    expect(seen.secretsSet).toMatchObject({
      name: 'SecretAccessError',
      code: 'SECRET_ACCESS_DENIED',
      secretName: 'ADMIN_ONLY',
      instanceOf: { SecretAccessError: true },
    });
    expect(
      logLines().some((line) => line.event === 'security' && line.kind === 'egress_private_address'),
    ).toBe(true);
  });

  it('refuses a cookie-authenticated state change that has no Origin', async () => {
    const signIn = await fetch(`${serve.baseUrl}/api/platform/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: hostile.email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const url = `${serve.baseUrl}/api/integrations/test-hostile/actions/ok?accountId=${hostile.accountId}`;
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    expect((await post({})).status).toBe(403);
    expect((await post({ origin: serve.baseUrl })).status).toBe(200);
    expect((await call(hostile, 'test-hostile', 'ok')).status).toBe(200);
  });

  it('writes no token, secret, account id, OAuth state or code into the log of the whole run', async () => {
    await fetch(
      `${serve.baseUrl}/api/integrations/test-hostile/oauth/callback?code=code-9c1d&state=state-4e2b`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const output = serve.output();
    const dataDir = join(dir.path, 'data');
    const demoToken = (await readFile(join(dataDir, 'demo-token'), 'utf8')).trim();
    for (const value of [
      hostile.token,
      victim.token,
      demoToken,
      VICTIM_TOKEN,
      ADMIN_SECRET,
      URL_SECRET,
      PASSWORD,
    ]) {
      expect(output).not.toContain(value);
    }
    expect(output).not.toMatch(/accountId=[^$?&\s"]/);
    expect(output).not.toContain('code-9c1d');
    expect(output).not.toContain('state-4e2b');
    expect(output).not.toMatch(/(state|code)=[A-Za-z0-9]/);
  });
});
