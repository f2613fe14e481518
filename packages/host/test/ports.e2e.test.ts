import { readFile, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { createHost } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSecret } from '../src/store/secrets.js';
import { addMembership, createAccount, createToken, createUser } from '../src/store/users.js';
import { childEnv, type ServeProcess, startServe, tempDir } from './_cli.js';
import { installFactoryProject } from './_factoryProject.js';
import { type FakeVendor, signWorkable, startFakeVendor } from './_fakeVendor.js';
import { FIXTURES } from './_host.js';

// The GitHub and Workable ports (test/fixtures/ports/) on a real `platform-host serve` with
// `--allow-loopback-egress --egress-ca`, against a fake GitHub and Workable on a loopback HTTPS
// port: OAuth, an issue created without a User-Agent of the port's own, GitHub's 422, a paginated
// sync through 429 and 502 answers that keeps its progress at each checkpoint, Workable's cursor
// sync through a 503, and six signed webhooks at once all applied to one storage key.

const REPO = { owner: 'octo', repo: 'hello' };
const WEBHOOK_SECRET = 'workable-webhook-secret-5b1c';

let dir: { path: string; cleanup(): Promise<void> };
let vendor: FakeVendor;
let serve: ServeProcess;
let owner: { accountId: string; token: string };

const routeUrl = (slug: string, rest: string, query = '') =>
  `${serve.baseUrl}/api/integrations/${slug}/${rest}?accountId=${owner.accountId}${query}`;
const auth = () => ({ authorization: `Bearer ${owner.token}` });
// The ports' schedules sync against the same storage and fake vendor as the actions: a scheduled
// sync running beside a test's sync would take its injected faults and answer it 409 conflict (as it
// should). So here they are scheduled at midnight on a day of the month two weeks away, which no run
// reaches; waiting for a clear minute of the wall clock was not enough on a loaded CI machine.
const FAR_DAY = ((new Date().getUTCDate() + 13) % 28) + 1;
const FAR_CRON = `0 0 ${FAR_DAY} * *`;
const action = (slug: string, name: string, input: unknown) =>
  fetch(routeUrl(slug, `actions/${name}`), {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
async function data<T = any>(response: Response): Promise<T> {
  const body = (await response.json()) as { ok: boolean; data?: T };
  if (!body.ok) throw new Error(`expected ok, got ${response.status} ${JSON.stringify(body)}`);
  return body.data as T;
}
const stored = async (slug: string, ...keys: string[]) =>
  data(await fetch(routeUrl(slug, 'storage', `&keys=${keys.join(',')}`), { headers: auth() }));
const logLines = () =>
  serve
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
const vendorCalls = (pattern: RegExp) =>
  vendor.requests.filter((request) => pattern.test(`${request.method} ${request.url}`));

async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  vendor = await startFakeVendor();
  vendor.github.seed(`${REPO.owner}/${REPO.repo}`, 12);
  vendor.workable.seed(12);
  dir = await tempDir('ports');
  const dataDir = join(dir.path, 'data');
  const caFile = join(dir.path, 'fake-vendor-ca.pem');
  await writeFile(caFile, vendor.ca);

  // Seeded straight into the data folder, then served by a separate `serve` process.
  const host = await createHost({ dataDir, runtime: 'in-process', logger: pino({ level: 'silent' }) });
  try {
    const user = await createUser(host.db, { email: 'porter@example.test', name: 'Porter' });
    const account = await createAccount(host.db, { slug: 'porter-co', name: 'Porter Co' });
    await addMembership(host.db, account.id, user.id, 'owner');
    const versions = await installFactoryProject(
      host,
      [
        {
          slug: 'github-issues',
          fixture: 'ports/github-issues',
          factory: 'githubIssues',
          options: { api: vendor.origin, web: vendor.origin, perPage: 5, cron: FAR_CRON },
        },
        {
          slug: 'workable-candidates',
          fixture: 'ports/workable-candidates',
          factory: 'workableCandidates',
          options: { api: vendor.origin, limit: 5, cron: FAR_CRON },
        },
      ],
      { accountId: account.id, userId: user.id },
    );
    const secret = (slug: string, name: string, value: string) =>
      writeSecret(host.db, host.services.secretBox, {
        scope: { slug, accountId: account.id, sourceId: versions[0]!.sourceId },
        tier: 'source',
        name,
        value,
      });
    await secret('github-issues', 'GITHUB_CLIENT_ID', vendor.github.app.clientId);
    await secret('github-issues', 'GITHUB_CLIENT_SECRET', vendor.github.app.clientSecret);
    await secret('workable-candidates', 'WORKABLE_WEBHOOK_SECRET', WEBHOOK_SECRET);
    const { token } = await createToken(host.db, { userId: user.id, kind: 'token', name: 'test' });
    owner = { accountId: account.id, token };
  } finally {
    await host.close();
  }
  serve = await startServe(
    ['--data', dataDir, '--no-examples', '--port', '0', '--allow-loopback-egress', '--egress-ca', caFile],
    childEnv({ PLATFORM_RUNNERS: '2' }),
  );
}, 120_000);

afterAll(async () => {
  await serve?.stop();
  await vendor?.close();
  await dir?.cleanup();
});

describe('the ports carry no helper code', () => {
  it('set no User-Agent and write no retry, backoff or pagination of their own', async () => {
    for (const port of ['github-issues', 'workable-candidates']) {
      const source = await readFile(join(FIXTURES, 'ports', port, 'integration.ts'), 'utf8');
      expect(source, port).not.toMatch(
        /['"]user-agent['"]|['"]retry-after['"]|setTimeout\(|rel="next"|\.get\(['"]link['"]\)/i,
      );
      expect(source, port).not.toMatch(/createHmac|subtle|x-workable-signature'\]/i);
    }
  });
});

describe('GitHub port on a real serve against a fake GitHub', { timeout: 90_000 }, () => {
  it('answers 409 with its own message before GitHub is connected', async () => {
    const response = await action('github-issues', 'create-issue', { ...REPO, title: 'Too early' });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Connect GitHub first' },
    });
    expect(vendorCalls(/^POST \/repos\//)).toEqual([]);
  });

  it("connects through the host's OAuth loop; the code exchange reaches the fake GitHub through --egress-ca", async () => {
    const connect = await fetch(routeUrl('github-issues', 'oauth/connect', '&returnPath=/settings'), {
      headers: auth(),
      redirect: 'manual',
    });
    expect(connect.status).toBe(302);
    const callback = vendor.github.approve(connect.headers.get('location')!);
    const back = await fetch(callback, { headers: auth(), redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('/settings');
    expect(vendor.github.tokens).toHaveLength(1);
    expect(
      await data(await fetch(routeUrl('github-issues', 'oauth/status'), { headers: auth() })),
    ).toMatchObject({
      connected: true,
    });
  });

  it('the fake GitHub refuses an API request without a User-Agent, as GitHub does', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpsRequest(
        `${vendor.origin}/repos/octo/hello/issues`,
        { ca: vendor.ca },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(403);
    expect(vendor.requests.at(-1)).toMatchObject({ userAgent: undefined, status: 403 });
    vendor.requests.length = 0;
  });

  it('creates an issue; GitHub sees the platform User-Agent, so no 403', async () => {
    const created = await data(
      await action('github-issues', 'create-issue', { ...REPO, title: 'Port works', body: 'no helpers' }),
    );
    expect(created).toEqual({ number: 13, url: 'https://github.com/octo/hello/issues/13' });
    const [post] = vendorCalls(/^POST \/repos\/octo\/hello\/issues$/);
    expect(post).toMatchObject({ status: 201 });
    expect(post!.userAgent).toMatch(/^platform-integration\//);
    expect(post!.userAgent).toContain('github-issues');
    expect(vendor.requests.some((request) => request.status === 403)).toBe(false);
  });

  it("answers GitHub's 422 as a failed action, and the host log names GitHub's status and message", async () => {
    const response = await action('github-issues', 'create-issue', { ...REPO, title: '   ' });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Action failed.' },
    });
    const line = await until(
      async () =>
        logLines().find(
          (entry) =>
            entry.integration === 'github-issues' && /create-issue" failed: .*422/.test(String(entry.msg)),
        ),
      'the failure line',
      30_000,
    );
    expect(line.msg).toContain('GitHub answered 422');
    expect(line.msg).toContain('Validation Failed');
    expect(line.msg).toContain('missing_field');
    // A 422 is the vendor's verdict: not retried.
    expect(vendorCalls(/^POST /).filter((request) => request.status === 422)).toHaveLength(1);
  });

  it('syncs every page through a 429 (Retry-After: 1) and a 502, with no retry code in the port', async () => {
    vendor.faults.push(
      { method: 'GET', match: /\/issues\?.*page=2/, status: 429, headers: { 'retry-after': '1' } },
      { method: 'GET', match: /\/issues\?.*page=3/, status: 502 },
    );
    const before = vendor.requests.length;
    expect(await data(await action('github-issues', 'sync-issues', REPO))).toEqual({ read: 13 });
    const pages = vendor.requests
      .slice(before)
      .map((request) => `${new URL(request.url, vendor.origin).searchParams.get('page')} ${request.status}`);
    expect(pages).toEqual(['1 200', '2 429', '2 200', '3 502', '3 200']);
    const { 'cache/issues': issues, 'sync_state/issues': state } = await stored(
      'github-issues',
      'cache/issues',
      'sync_state/issues',
    );
    expect(Object.keys(issues).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 13 }, (_, index) => String(index + 1)),
    );
    expect(issues['13']).toEqual({
      number: 13,
      title: 'Port works',
      state: 'open',
      html_url: 'https://github.com/octo/hello/issues/13',
    });
    expect(state).toMatchObject({ nextPage: null });
    expect(
      logLines().some((entry) => /GitHub answered 429 .*try 2 of 4 in 1000 ms/.test(String(entry.msg))),
    ).toBe(true);
  });

  it('keeps the pages saved at checkpoints when a sync fails, and the next sync resumes there', async () => {
    // Renamed at GitHub: page 1 of the next sync brings the new title.
    const issues = vendor.github.issues.get('octo/hello')!;
    issues[0] = { ...issues[0]!, title: 'Renamed at GitHub' };
    vendor.faults.push(
      ...Array.from({ length: 4 }, () => ({ method: 'GET', match: /\/issues\?.*page=2/, status: 502 })),
    );
    const failed = await action('github-issues', 'sync-issues', REPO);
    expect(failed.status).toBe(500);
    await until(
      async () =>
        logLines().find((entry) =>
          /sync-issues" failed: .*GitHub answered 502 Bad Gateway to GET \S*\/repos\/octo\/hello\/issues\S* \(after 4 attempts\)/.test(
            String(entry.msg),
          ),
        ),
      'the failure line naming the last 502',
      30_000,
    );
    const kept = await stored('github-issues', 'cache/issues', 'sync_state/issues');
    expect(kept['cache/issues']['1'].title).toBe('Renamed at GitHub');
    expect(kept['sync_state/issues']).toEqual({ repo: 'octo/hello', nextPage: 2, syncedAt: null });

    const before = vendor.requests.length;
    expect(await data(await action('github-issues', 'sync-issues', REPO))).toEqual({ read: 8 });
    expect(
      vendor.requests
        .slice(before)
        .map((request) => new URL(request.url, vendor.origin).searchParams.get('page')),
    ).toEqual(['2', '3']);
    expect((await stored('github-issues', 'sync_state/issues'))['sync_state/issues']).toMatchObject({
      nextPage: null,
    });
  });
});

describe('Workable port on a real serve against a fake Workable', { timeout: 120_000 }, () => {
  const deliver = (body: string, signature = signWorkable(body, WEBHOOK_SECRET)) =>
    fetch(routeUrl('workable-candidates', 'webhooks/candidate-events'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-workable-signature': signature },
      body,
    });

  it('syncs the candidates page by page through a 503', async () => {
    const early = await action('workable-candidates', 'sync-candidates', {});
    expect(early.status).toBe(409);
    expect(await early.json()).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Connect Workable first' },
    });
    expect(
      await data(await action('workable-candidates', 'connect', { token: vendor.workable.token })),
    ).toEqual({
      connected: true,
    });
    vendor.faults.push({ method: 'GET', match: /\/spi\/v3\/candidates\?.*since_id=c006/, status: 503 });
    const before = vendor.requests.length;
    expect(await data(await action('workable-candidates', 'sync-candidates', {}))).toEqual({ read: 12 });
    expect(
      vendor.requests
        .slice(before)
        .map(
          (request) =>
            `${new URL(request.url, vendor.origin).searchParams.get('since_id')} ${request.status}`,
        ),
    ).toEqual(['null 200', 'c006 503', 'c006 200', 'c011 200']);
    const { 'cache/candidates': candidates, 'sync_state/candidates': state } = await stored(
      'workable-candidates',
      'cache/candidates',
      'sync_state/candidates',
    );
    expect(Object.keys(candidates).sort()).toEqual(
      vendor.workable.candidates.map((candidate) => candidate.id),
    );
    expect(state).toEqual({ sinceId: 'c012' });
  });

  it('applies six signed candidate_deleted webhooks sent at once, and refuses a forged one', async () => {
    const forged = await deliver(
      JSON.stringify({ event_type: 'candidate_deleted', data: { id: 'c012' } }),
      '00'.repeat(32),
    );
    expect(forged.status).toBe(401);

    const deleted = ['c001', 'c002', 'c003', 'c004', 'c005', 'c006'];
    const answers = await Promise.all(
      deleted.map((id) => deliver(JSON.stringify({ event_type: 'candidate_deleted', data: { id } }))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(deleted.map(() => 202));
    const ids = await Promise.all(answers.map(async (answer) => (await data(answer)).deliveryId as string));

    const entries = await until(async () => {
      const log = await data(
        await fetch(routeUrl('workable-candidates', 'deliveries', '&limit=50'), { headers: auth() }),
      );
      const mine = (log.entries as Record<string, any>[]).filter((entry) => ids.includes(entry.id));
      if (mine.some((entry) => entry.status === 'failed'))
        throw new Error(`a delivery failed: ${JSON.stringify(mine)}`);
      return mine.length === 6 && mine.every((entry) => entry.status === 'succeeded') ? mine : undefined;
    }, 'the six deliveries');
    expect(entries).toHaveLength(6);
    const { 'cache/candidates': candidates } = await stored('workable-candidates', 'cache/candidates');
    expect(Object.keys(candidates).sort()).toEqual(['c007', 'c008', 'c009', 'c010', 'c011', 'c012']);

    const created = await deliver(
      JSON.stringify({
        event_type: 'candidate_created',
        data: { id: 'c100', name: 'New Person', stage: 'sourced' },
      }),
    );
    expect(created.status).toBe(202);
    await until(async () => {
      const { 'cache/candidates': now } = await stored('workable-candidates', 'cache/candidates');
      return now.c100 === undefined ? undefined : now.c100;
    }, 'the created candidate');
  });
});
