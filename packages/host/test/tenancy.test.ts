// Issue 46 item 8: "a source serves an account" is the rule of tenancy, enforced everywhere. Source
// B (a development source, so its versions are live at once) carries `test-tools` and
// `test-events`; account A (the seeded one) is not served by B, account C is. A cannot activate B's
// integrations (API and admin CLI, which names the fix), cannot call their actions, storage or
// tools (404 exactly like an unknown slug), and gets no webhook delivered; once
// `source-account remove` stops serving C, its calls, tools and deliveries stop too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/Command.js';
import { runCli } from '../src/cli/runCli.js';
import { installProject } from '../src/install/installProject.js';
import {
  addSourceAccount,
  createSource,
  removeSourceAccount,
  sourceServesAccount,
  upsertActivation,
} from '../src/store/integrations.js';
import { addMembership, createAccount } from '../src/store/users.js';
import { FIXTURES, partnerLog, startTestHost, type TestHost } from './_host.js';

const log = partnerLog();
let host: TestHost;
let sourceB: { id: string; slug: string };
let served: { id: string; slug: string };
let unserved: { id: string; slug: string };

beforeAll(async () => {
  host = await startTestHost({ logger: log.logger, projects: ['notes'] });
  sourceB = await createSource(host.db, { slug: 'tenancy-b', name: 'Publisher B', stage: 'development' });
  for (const project of ['tools', 'events']) {
    await installProject({
      db: host.db,
      runtime: host.services.runtime,
      projectDir: `${FIXTURES}${project}`,
      sourceSlug: sourceB.slug,
    });
  }
  const account = (await host.db.query('SELECT id, slug FROM accounts WHERE id = $1', [host.accountId]))
    .rows[0]!;
  unserved = { id: account.id as string, slug: account.slug as string };
  const other = await createAccount(host.db, { slug: `served-${Date.now()}`, name: 'Served by B' });
  await addMembership(host.db, other.id, host.userId, 'owner');
  served = { id: other.id, slug: other.slug };
  const link = await admin('source-account', 'add', '--source', sourceB.slug, '--account', served.slug);
  expect(link).toMatchObject({ ok: true, data: { source: sourceB.slug, account: served.slug } });
}, 120_000);
afterAll(() => host?.close());

const io = (): CliIo => ({ cwd: process.cwd(), env: {}, readStdin: async () => '', host });
async function admin(...argv: string[]): Promise<{ ok: boolean; data?: unknown; error?: unknown }> {
  const outcome = await runCli(['admin', ...argv, '--json'], io());
  if (outcome.kind !== 'exit') throw new Error('expected an exit');
  return JSON.parse(outcome.stdout);
}

const route = (slug: string, rest: string, account: string) =>
  `/api/integrations/${slug}/${rest}?accountId=${encodeURIComponent(account)}`;

/** The status and error (without the request id) a route answers. */
async function refusal(response: Response): Promise<{ status: number; code: unknown; message: unknown }> {
  const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
  return { status: response.status, code: body.error?.code, message: body.error?.message };
}

/** What the same route answers for a slug that does not exist, with `slug` in its words. */
async function unknownSlugAnswer(
  path: (slug: string) => string,
  slug: string,
  init?: RequestInit & { json?: unknown },
) {
  const answer = await refusal(await host.call(path('no-such-integration'), init));
  expect(answer).toMatchObject({ status: 404, code: 'integration_not_found' });
  return { ...answer, message: String(answer.message).replace('no-such-integration', slug) };
}

async function mcpCall(account: string, method: string, params: Record<string, unknown> = {}) {
  const response = await host.app.request(`/mcp?accountId=${account}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${host.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'tenancy', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  return { status: response.status, text: await response.text() };
}

async function catalog(account: string): Promise<string[]> {
  const response = await host.call(`/api/platform/accounts/${account}/tools`);
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: { tools: { name: string }[] } };
  return data.tools.map((tool) => tool.name);
}

async function deliver(account: string, id: string): Promise<Response> {
  return host.app.request(route('test-events', 'webhooks/flaky', account), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
}

const jobsOf = async (account: string) =>
  (
    await host.db.query('SELECT status FROM jobs WHERE integration_slug = $1 AND account_id = $2', [
      'test-events',
      account,
    ])
  ).rows.map((row) => row.status as string);

describe('an account its source does not serve', () => {
  it('cannot activate the integration: 404 with the words of an unknown slug', async () => {
    const path = (slug: string) => route(slug, 'activation', unserved.id);
    const unknown = await unknownSlugAnswer(path, 'test-tools', { json: {} });
    expect(await refusal(await host.call(path('test-tools'), { json: {} }))).toEqual(unknown);
    expect(await refusal(await host.call(path('test-tools')))).toEqual(unknown);
    const put = { method: 'PUT', json: { data: { x: 1 } } };
    expect(await refusal(await host.call(route('test-tools', 'activation/data', unserved.id), put))).toEqual(
      await unknownSlugAnswer((slug) => route(slug, 'activation/data', unserved.id), 'test-tools', put),
    );
    // Nothing about source B shows in the refusal.
    expect(JSON.stringify(unknown)).not.toMatch(/tenancy-b|Publisher B/);
    expect(
      (
        await host.db.query('SELECT 1 FROM activations WHERE account_id = $1 AND integration_slug = $2', [
          unserved.id,
          'test-tools',
        ])
      ).rowCount,
    ).toBe(0);
  });

  it('cannot be activated by the store either: the write refuses itself', async () => {
    await expect(
      upsertActivation(host.db, {
        slug: 'test-tools',
        accountId: unserved.id,
        userId: host.userId,
        data: null,
      }),
    ).rejects.toMatchObject({ name: 'SourceDoesNotServeError', slug: 'test-tools' });
  });

  it('the admin CLI refuses the activation and names source-account add', async () => {
    const refused = await admin(
      'activation',
      'add',
      '--integration',
      'test-tools',
      '--account',
      unserved.slug,
    );
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'refused',
        message: `Source "tenancy-b" does not serve account "${unserved.slug}", so integration "test-tools" cannot be activated there.`,
      },
    });
    expect((refused.error as { hint: string }).hint).toContain(
      `\`platform-host admin source-account add --source tenancy-b --account ${unserved.slug}\``,
    );
    const text = await runCli(
      ['admin', 'activation', 'add', '--integration', 'test-tools', '--account', unserved.slug],
      io(),
    );
    expect(text).toMatchObject({ kind: 'exit', exitCode: 1 });
    expect(text.kind === 'exit' && text.stderr).toContain(
      'platform-host admin source-account add --source tenancy-b',
    );
  });

  describe('with an activation recorded before the rule', () => {
    beforeAll(async () => {
      // Rows the rule would refuse now: the routes must not trust them.
      for (const slug of ['test-tools', 'test-events']) {
        await host.db.query(
          "INSERT INTO activations (integration_slug, account_id, activated_by, data) VALUES ($1, $2, $3, 'null'::jsonb)",
          [slug, unserved.id, host.userId],
        );
      }
    });

    it('cannot call its actions or read its storage: 404 like an unknown slug', async () => {
      const action = (slug: string) => route(slug, 'actions/search-notes', unserved.id);
      const body = { json: { text: '' } };
      expect(await refusal(await host.call(action('test-tools'), body))).toEqual(
        await unknownSlugAnswer(action, 'test-tools', body),
      );
      const storage = (slug: string) => `${route(slug, 'storage', unserved.id)}&keys=cache`;
      expect(await refusal(await host.call(storage('test-tools')))).toEqual(
        await unknownSlugAnswer(storage, 'test-tools'),
      );
      // The integration of a source that serves the account still answers.
      const own = await host.call(route('test-notes', 'actions/list-notes', unserved.id), { json: {} });
      expect(own.status).toBe(200);
    });

    it('is offered none of its tools, and a model cannot call one', async () => {
      expect((await catalog(unserved.id)).filter((name) => name.startsWith('test_tools_'))).toEqual([]);
      const listed = await mcpCall(unserved.id, 'tools/list');
      expect(listed.status).toBe(200);
      expect(listed.text).not.toContain('test_tools_');
      const called = await mcpCall(unserved.id, 'tools/call', {
        name: 'test_tools_search_notes',
        arguments: { text: '' },
      });
      expect(called.text).not.toContain('"isError":false');
      expect(called.text).toMatch(/-32602|not found|unknown tool/i);
    });

    it('gets no webhook delivered: refused like an unknown account, nothing queued', async () => {
      const refused = await refusal(await deliver(unserved.id, 'a-1'));
      const unknownAccount = await refusal(await deliver('no-such-account', 'a-1'));
      expect(refused).toEqual({
        ...unknownAccount,
        message: String(unknownAccount.message).replace('no-such-account', unserved.id),
      });
      expect(refused).toMatchObject({ status: 404, code: 'not_activated' });
      expect(await jobsOf(unserved.id)).toEqual([]);
    });
  });
});

describe('an account its source serves', () => {
  it('activates, calls, lists the tools and gets deliveries; after source-account remove all of it stops', async () => {
    expect(await sourceServesAccount(host.db, sourceB.id, served.id)).toBe(true);
    for (const slug of ['test-tools', 'test-events']) {
      const activated = await host.call(route(slug, 'activation', served.id), { json: {} });
      expect(activated.status, await activated.clone().text()).toBe(201);
    }
    const action = () =>
      host.call(route('test-tools', 'actions/search-notes', served.id), { json: { text: '' } });
    expect((await action()).status).toBe(200);
    expect(await catalog(served.id)).toContain('test_tools_search_notes');
    expect((await mcpCall(served.id, 'tools/list')).text).toContain('test_tools_search_notes');
    expect((await deliver(served.id, 'c-1')).status).toBe(202);
    expect(await host.events.worker.drain()).toBe(1);
    expect(await jobsOf(served.id)).toEqual(['succeeded']);
    // A delivery accepted while served, then the account stops being served before it runs.
    expect((await deliver(served.id, 'c-2')).status).toBe(202);

    const removed = await admin(
      'source-account',
      'remove',
      '--source',
      sourceB.slug,
      '--account',
      served.slug,
    );
    expect(removed).toMatchObject({
      ok: true,
      data: { source: sourceB.slug, account: served.slug, removed: true },
    });
    expect(await sourceServesAccount(host.db, sourceB.id, served.id)).toBe(false);

    // Cached resolutions are dropped (the epoch moved): the very next call is refused.
    const after = await refusal(await action());
    expect(after).toEqual(
      await unknownSlugAnswer((slug) => route(slug, 'actions/search-notes', served.id), 'test-tools', {
        json: { text: '' },
      }),
    );
    expect(await catalog(served.id)).not.toContain('test_tools_search_notes');
    expect((await mcpCall(served.id, 'tools/list')).text).not.toContain('test_tools_search_notes');
    expect((await refusal(await deliver(served.id, 'c-3'))).code).toBe('not_activated');
    // The queued delivery is not run for an account the source no longer serves.
    await host.events.worker.drain();
    expect((await jobsOf(served.id)).sort()).toEqual(['failed', 'succeeded']);
    expect(log.reported<{ id: string }>('seen', 'seen').map((seen) => seen.id)).toEqual(['c-1']);

    // Removing again says it was not served; serving again restores the kept activation.
    const again = await admin('source-account', 'remove', '--source', sourceB.slug, '--account', served.slug);
    expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } });
    await admin('source-account', 'add', '--source', sourceB.slug, '--account', served.slug);
    expect((await action()).status).toBe(200);
  });
});

describe('an activation racing a removal', () => {
  const settled = async (promise: Promise<unknown>, ms: number) =>
    Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

  it('a removal waits for an activation that holds the link, and one that went first refuses it', async () => {
    const account = await createAccount(host.db, { slug: `race-${Date.now()}`, name: 'Race' });
    await addMembership(host.db, account.id, host.userId, 'owner');
    await addSourceAccount(host.db, sourceB.id, account.id);
    const input = { slug: 'test-events', accountId: account.id, userId: host.userId, data: null };

    // The activation's transaction holds the source_accounts row: the removal waits for its commit.
    let removal: Promise<boolean> | undefined;
    await host.db.transaction(async (tx) => {
      await upsertActivation(tx, input);
      removal = removeSourceAccount(host.db, sourceB.id, account.id);
      expect(await settled(removal, 300)).toBe(false);
    });
    expect(await removal).toBe(true);

    // Served again, then a removal not yet committed: the activation waits, and then refuses.
    await host.db.query('DELETE FROM activations WHERE account_id = $1', [account.id]);
    await addSourceAccount(host.db, sourceB.id, account.id);
    let activation: Promise<unknown> | undefined;
    await host.db.transaction(async (tx) => {
      await removeSourceAccount(tx, sourceB.id, account.id);
      activation = upsertActivation(host.db, input);
      activation.catch(() => {});
      expect(await settled(activation, 300)).toBe(false);
    });
    await expect(activation).rejects.toMatchObject({ name: 'SourceDoesNotServeError' });
    expect(
      (await host.db.query('SELECT 1 FROM activations WHERE account_id = $1', [account.id])).rowCount,
    ).toBe(0);
  });
});
