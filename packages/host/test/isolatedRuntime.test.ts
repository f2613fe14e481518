import { buildBundle, createIsolatedRuntime, type IsolatedRuntime, type Runtime } from '@platform/host';
import type { LogEntry } from '@platform/sdk/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveVersion } from '../src/store/integrations.js';
import { writeSecret } from '../src/store/secrets.js';
import { FIXTURES, startTestHost, type TestHost } from './_host.js';
import { invokeBundle } from './_runtime.js';

// Partner code that misbehaves, run by the isolated runtime behind the real actions route.
const CPU_LIMIT_MS = 400;
// The wall-clock budget is far above what a CPU-limited call may take even on a loaded 2-core
// machine, so a call ending within the margin was ended by its CPU limit, not by the clock.
const TIMEOUT_MS = 12_000;
const MARGIN_MS = 6000;

let host: TestHost;
let runtime: IsolatedRuntime;
const call = (slug: string, action: string, json: unknown = {}) =>
  host.call(`/api/integrations/${slug}/actions/${action}?accountId=${host.accountId}`, { json });

async function timed(slug: string, action: string, json: unknown = {}) {
  const started = Date.now();
  const response = await call(slug, action, json);
  return { status: response.status, body: (await response.json()) as any, ms: Date.now() - started };
}

beforeAll(async () => {
  runtime = createIsolatedRuntime({ runners: 2, cpuLimitMs: CPU_LIMIT_MS, memoryLimitMb: 64 });
  host = await startTestHost({
    runtime,
    projects: ['notes', 'hostile'],
    limits: { actionTimeoutMs: TIMEOUT_MS },
  });
});
afterAll(() => host.close());

describe('isolated runtime: resource limits', () => {
  it('runs partner code in isolates, with the web APIs and zod working inside', async () => {
    expect(runtime.isolated).toBe(true);
    const { status, body } = await timed('test-hostile', 'ok');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ fine: true, url: 'https://example.com/a?b=1' });
    expect(body.data.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  for (const action of ['sync-loop', 'loop-after-await', 'heap-bomb', 'buffer-bomb']) {
    it(`ends ${action} with handler_error within its limit, and the next call succeeds`, async () => {
      const other = call('test-notes', 'add-note', { title: `during ${action}` });
      const result = await timed('test-hostile', action);
      expect(result.status).toBe(500);
      expect(result.body).toEqual({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
      expect(result.ms).toBeLessThan(CPU_LIMIT_MS + MARGIN_MS);
      expect((await other).status).toBe(200);
      const next = await timed('test-hostile', 'ok');
      expect(next.status).toBe(200);
    });
  }

  it('fails calls in flight on a runner that dies with handler_error, and replaces the runner', async () => {
    const slow = timed('test-hostile', 'slow', { ms: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const before = runtime.runnerPids();
    expect(before.length).toBeGreaterThan(0);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    const result = await slow;
    expect(result.status).toBe(500);
    expect(result.body.error.code).toBe('handler_error');
    // Ended by the runner's death, not by the handler finishing or the time limit.
    expect(result.ms).toBeLessThan(8000);
    // The host notices each exit on its own schedule; calls after that go to new runners.
    while (runtime.runnerPids().some((pid) => before.includes(pid))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await timed('test-hostile', 'ok')).status).toBe(200);
    expect((await timed('test-notes', 'list-notes')).status).toBe(200);
    expect(runtime.runnerPids().length).toBeGreaterThan(0);
    expect(runtime.runnerPids().some((pid) => before.includes(pid))).toBe(false);
  });
});

describe('isolated runtime: escape suite', () => {
  it('blocks every way out; the host keeps serving', async () => {
    const notes = await liveVersion(host.db, 'test-notes');
    await writeSecret(host.db, host.services.secretBox, {
      scope: { slug: 'test-notes', accountId: host.accountId, sourceId: notes!.sourceId },
      tier: 'account',
      name: 'NOTES_ONLY_TOKEN',
      value: 'not-for-hostile',
    });
    const { status, body } = await timed('test-hostile', 'escape', {
      otherSecret: 'NOTES_ONLY_TOKEN',
      privateUrl: 'http://127.0.0.1:1/',
    });
    expect(status).toBe(200);
    const { probes, secret, stored } = body.data as {
      probes: Record<string, string>;
      secret: string | null;
      stored: unknown;
    };
    expect(stored).toEqual({ n: 1 });
    expect(secret).toBeNull();
    expect(Object.keys(probes).length).toBeGreaterThan(20);
    for (const [probe, outcome] of Object.entries(probes)) {
      if (probe === 'response body type') expect(outcome, probe).toBe('no response');
      else expect(outcome, probe).toMatch(/^(blocked|empty):/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await timed('test-notes', 'list-notes')).status).toBe(200);
  });
});

describe('isolated runtime: wall clock, attribution, bounds', () => {
  let bundle: string;
  const runtimes: Runtime[] = [];
  const started = (options: Parameters<typeof createIsolatedRuntime>[0]) => {
    const runtime = createIsolatedRuntime(options);
    runtimes.push(runtime);
    return runtime;
  };
  const invoke = (
    runtime: Runtime,
    versionId: string,
    actionName: string,
    input: unknown = {},
    logs?: LogEntry[],
  ) => invokeBundle(runtime, { bundle, versionId, actionName, input, ...(logs ? { logs } : {}) });

  beforeAll(async () => {
    bundle = await buildBundle(`${FIXTURES}hostile/integration.ts`);
  });
  afterAll(async () => {
    await Promise.all(runtimes.map((runtime) => runtime.close()));
  });

  it('disposes the isolate of a call past its wall-clock budget, so the handler cannot go on', async () => {
    // The handler waits past the 3 s budget, then would loop forever in the isolate the next call needs.
    const late = await timed('test-hostile', 'hang-then-loop', { ms: TIMEOUT_MS + 300 });
    expect(late.status).toBe(500);
    expect(late.body.error.code).toBe('handler_error');
    expect(late.ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const next = await timed('test-hostile', 'ok');
    expect(next.status).toBe(200);
    expect(next.ms).toBeLessThan(MARGIN_MS);
  });

  it("sends console lines of overlapping calls to each call's own log", async () => {
    const runtime = started({ runners: 1 });
    const logsA: LogEntry[] = [];
    const logsB: LogEntry[] = [];
    const a = invoke(runtime, 'chatty', 'chatty', { tag: 'a', ms: 400 }, logsA);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const b = invoke(runtime, 'chatty', 'chatty', { tag: 'b', ms: 10 }, logsB);
    expect(await Promise.all([a, b])).toEqual([
      { ok: true, data: { tag: 'a' } },
      { ok: true, data: { tag: 'b' } },
    ]);
    expect(logsA.map((entry) => `${entry.level} ${entry.message}`)).toEqual(['info start a', 'warn end a']);
    expect(logsB.map((entry) => `${entry.level} ${entry.message}`)).toEqual(['info start b', 'warn end b']);
  });

  it('lets no piece over the crossing limits out of an isolate: results, log lines, capability requests, digest data', async () => {
    // src/runner/limits.ts: CROSSING_CHARS (8 MiB of UTF-16 code units) and LOG_LINE_CHARS (64 KiB).
    const crossing = 8 * 1024 * 1024;
    const runtime = started({ runners: 1 });
    const logs: LogEntry[] = [];
    // The result crosses as its envelope's JSON: {"ok":true,"data":"..."}, 21 characters more.
    const tooBig = await invoke(
      runtime,
      'oversized',
      'oversized',
      { what: 'result', chars: crossing - 20 },
      logs,
    );
    expect(tooBig).toEqual({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
    expect(logs.map((entry) => entry.message)).toEqual([
      `the handler's result as JSON is ${crossing + 1} characters; at most ${crossing} cross from the isolate`,
    ]);
    // Just within the limit, the result crosses whole.
    const within = await invoke(runtime, 'oversized', 'oversized', { what: 'result', chars: crossing - 21 });
    expect(within.ok && (within.data as string).length).toBe(crossing - 21);

    const lines: LogEntry[] = [];
    expect(await invoke(runtime, 'oversized', 'oversized', { what: 'log', chars: 100_000 }, lines)).toEqual({
      ok: true,
      data: 'logged',
    });
    // A line over 64 KiB crosses with its message cut to 32 Ki characters (the host cuts it again).
    expect(lines.map((entry) => `${entry.level} ${entry.message}`)).toEqual([
      `info ${'y'.repeat(32 * 1024)}`,
    ]);
    // One whose message JSON escapes to six times its length is dropped.
    const escaped: LogEntry[] = [];
    await invoke(runtime, 'oversized', 'oversized', { what: 'log-escaped', chars: 20_000 }, escaped);
    expect(escaped.map((entry) => `${entry.level} ${entry.message}`)).toEqual([
      `warn log line dropped: its JSON is ${JSON.stringify({ level: 'info', message: '\u0001'.repeat(20_000) }).length} characters; at most 65536 cross from the isolate`,
    ]);

    const stored = await invoke(runtime, 'oversized', 'oversized', { what: 'store', chars: crossing });
    expect(stored).toEqual({
      ok: true,
      data: {
        error: `the storage.set request's arguments as JSON is ${JSON.stringify(['account', 'cache/blob', 'z'.repeat(crossing)]).length} characters; at most ${crossing} cross from the isolate`,
      },
    });
    // 7 MiB of bytes is 9,786,712 characters of base64.
    const digest = await invoke(runtime, 'oversized', 'oversized', {
      what: 'digest',
      chars: 7 * 1024 * 1024,
    });
    expect(digest).toMatchObject({
      ok: true,
      data: { error: expect.stringContaining('the data (base64) is 9786712 characters') },
    });
    // The isolate is still the one that ran all of these, and it still answers.
    expect(await invoke(runtime, 'oversized', 'ok')).toMatchObject({ ok: true });
  });

  it("sends the host at most 1 MiB of one call's log lines, which it would parse before its budget drops them", async () => {
    const runtime = started({ runners: 1 });
    const logs: LogEntry[] = [];
    // 200 lines of about 20 KB, 4 MB in all.
    expect(await invoke(runtime, 'flood', 'flood', { lines: 100, bytes: 20_000 }, logs)).toEqual({
      ok: true,
      data: { logged: 200 },
    });
    const chars = logs.reduce((sum, entry) => sum + JSON.stringify(entry).length, 0);
    expect(chars).toBeLessThanOrEqual(1024 * 1024);
    expect(chars).toBeGreaterThan(1024 * 1024 - 21_000);
  });

  it("holds what an entry on the runner's thread posts where no setter on Array.prototype sees it", async () => {
    // Partner code that got the held array could put one large string in it many times: copied out
    // at the entry's end, each occurrence would be a copy in the runner.
    const runtime = started({ runners: 1 });
    expect(await invoke(runtime, 'array-setter', 'array-setter')).toEqual({ ok: true, data: { seen: 0 } });
    const [stats] = await runtime.stats();
    expect(stats?.callsOnThread).toBe(1);
  });

  it('keeps at most maxIsolatesPerRunner isolates, least recently used idle one first, and reloads an evicted version', async () => {
    const runtime = started({ runners: 1, maxIsolatesPerRunner: 2 });
    for (const version of ['v1', 'v2', 'v3']) {
      expect((await invoke(runtime, version, 'ok')).ok).toBe(true);
    }
    const [stats] = await runtime.stats();
    expect(stats).toMatchObject({ isolates: 2, versions: 2 });
    // v1 went first; calling it again sends its code again and evicts v2.
    expect((await invoke(runtime, 'v1', 'ok')).ok).toBe(true);
    expect((await runtime.stats())[0]).toMatchObject({ isolates: 2, versions: 2 });
  });

  it("checks a definition where it reads it (install, the gate), not again in a running version's isolates", async () => {
    const runtime = started({ runners: 1 });
    const invalid = await buildBundle(`${FIXTURES}definition-checked/integration.ts`);
    // Read under a new id, as an install does: the check runs and refuses the slug.
    await expect(
      runtime.describe({ id: 'install-definition-checked', loadBundle: async () => invalid }),
    ).rejects.toMatchObject({ name: 'IntegrationDefinitionError', message: expect.stringMatching(/slug/) });
    // A version that runs calls was checked at its install: its isolate skips the check, and the
    // mark is taken off once the bundle's top level has run.
    expect(
      await invokeBundle(runtime, { bundle: invalid, versionId: 'installed', actionName: 'checked' }),
    ).toEqual({ ok: true, data: { markedAtLoad: true, markedNow: false } });
    // The marker is the host's, set per isolate: it is not set where a bundle is only read.
    await expect(
      runtime.describe({ id: 'install-definition-checked-2', loadBundle: async () => invalid }),
    ).rejects.toMatchObject({ name: 'IntegrationDefinitionError' });
  });

  it('checks the manifest an isolate answers describe with, whatever the bundle did to skip the check', async () => {
    const runtime = started({ runners: 1 });
    // A bundle with a guest engine of its own, answering with a manifest no definition could give.
    const manifest = {
      slug: 'forged',
      egress: ['*'],
      actions: [{ name: 'steal', description: 'x' }],
      webhooks: [],
      schedules: [{ id: 'often', cron: '* * *' }],
      tools: [],
      widgets: [],
      storage: { account: ['../other-integration/tokens'], user: [] },
      hasOnActivate: false,
    };
    const forged = [
      'var definition = {};',
      `async function run() { return ${JSON.stringify(manifest)}; }`,
      'export { definition as default, run as __platformRunGuestCall };',
    ].join('\n');
    const refused = runtime.describe({ id: 'install-forged', loadBundle: async () => forged });
    await expect(refused).rejects.toMatchObject({ name: 'IntegrationDefinitionError' });
    const problems = ((await refused.catch((error: unknown) => error)) as { problems: { path: string }[] })
      .problems;
    expect(problems.map((problem) => problem.path)).toEqual(
      expect.arrayContaining(['egress.0', 'schedules[often]', 'storage.account.../other-integration/tokens']),
    );
    // The same bundle answering with a valid manifest is read as it is.
    const honest = forged.replace('"*"', '"https://api.acme.com"').replace('* * *', '0 3 * * *');
    const valid = await runtime.describe({
      id: 'install-forged-2',
      loadBundle: async () => honest.replace('../other-integration/tokens', 'settings'),
    });
    expect(valid).toMatchObject({ slug: 'forged', egress: ['https://api.acme.com'] });
  });

  it('disposes isolates idle for isolateIdleMs, and the next call starts a fresh one', async () => {
    const runtime = started({ runners: 1, isolateIdleMs: 200 });
    expect((await invoke(runtime, 'idle', 'ok')).ok).toBe(true);
    expect((await runtime.stats())[0]).toMatchObject({ isolates: 1 });
    const deadline = Date.now() + 15_000;
    while ((await runtime.stats())[0]?.isolates !== 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await runtime.stats())[0]).toMatchObject({ isolates: 0, versions: 0 });
    expect((await invoke(runtime, 'idle', 'ok')).ok).toBe(true);
  });
});
