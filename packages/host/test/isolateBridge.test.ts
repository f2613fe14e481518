import { readFile } from 'node:fs/promises';
import { buildBundle, createIsolatedRuntime, type Runtime, type RuntimeReport } from '@platform/host';
import {
  EgressDeniedError,
  MachineActorStorageError,
  SecretAccessError,
  StorageValidationError,
} from '@platform/sdk/integration';
import { type Capabilities, createMemoryCapabilities } from '@platform/sdk/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from './_host.js';

// The isolate bridge against a hostile bundle, straight through the runtime (no host): what the
// runner answers, for which call, and what is left running after a call.
const VICTIM_SECRET = 'victim-secret-value-7f3a';
const VICTIM_DATA = 'victim data 91c2';

let bundle: string;
const reports: RuntimeReport[] = [];
// The slice a call may hold the runner's thread (10 ms in production): counts of entries, stops and
// versions sent to the pool below would drift whenever a loaded machine left the runner waiting for
// a core past a 10 ms slice. Handlers meant to overrun it spin for SPIN_MS.
const THREAD_SLICE_MS = 100;
const SPIN_MS = 4 * THREAD_SLICE_MS;
const runtime = createIsolatedRuntime({
  runners: 1,
  threadSliceMs: THREAD_SLICE_MS,
  onReport: (report) => reports.push(report),
});

// `on`: a runtime of the test's own; `timeoutMs`: the call's wall-clock budget.
function invoke(
  versionId: string,
  actionName: string,
  input: unknown,
  capabilities: Capabilities,
  { on = runtime, timeoutMs = 10_000 }: { on?: Runtime; timeoutMs?: number } = {},
) {
  return on.invokeAction({
    version: { id: versionId, slug: versionId, number: 1, loadBundle: async () => bundle },
    capabilities,
    actor: { kind: 'user', userId: 'u1', accountId: 'a1' },
    timeoutMs,
    actionName,
    rawBody: JSON.stringify(input),
  });
}

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// CPU time (user + system) of a process so far, in milliseconds, from /proc.
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

beforeAll(async () => {
  bundle = await buildBundle(`${FIXTURES}hostile/integration.ts`);
});
afterAll(() => runtime.close());

describe('isolate bridge: a call borrows nothing', () => {
  it("answers no capability of another isolate's running call, by any id, and reports the attempts", async () => {
    let victimFetches = 0;
    const victim = createMemoryCapabilities({
      secrets: { account: { VICTIM_TOKEN: VICTIM_SECRET } },
      storage: { account: { settings: VICTIM_DATA } },
      fetch: async () => {
        victimFetches++;
        return { status: 200, statusText: 'OK', headers: [], body: '' };
      },
    });
    const hostile = createMemoryCapabilities();
    const running = invoke('victim', 'spy-wait', { ms: 3000 }, victim);
    // The victim's live call id, as if it had leaked by any channel.
    const victimId = await until(
      () =>
        /^call-id (\S+)$/.exec(
          victim.state.logs.find((entry) => entry.message.startsWith('call-id'))?.message ?? '',
        )?.[1],
      "the victim's call id",
    );
    expect(victimId).toMatch(/^[0-9a-f-]{36}$/);

    const result = await invoke('hostile', 'borrow', { ids: [victimId] }, hostile);
    expect(result.ok).toBe(true);
    const { leaked, outcomes } = (result as { data: { leaked: boolean; outcomes: Record<string, any> } })
      .data;
    expect(leaked).toBe(true);
    expect(Object.keys(outcomes).length).toBeGreaterThan(40);
    for (const [id, forged] of Object.entries(outcomes)) {
      // Every forged call ran, and every capability it tried was refused.
      expect(forged, id).toMatchObject({ ok: true });
      for (const step of ['secret', 'stored', 'wrote', 'fetched']) {
        expect(forged.data[step], `${id} ${step}`).toEqual({
          error: 'refused: this isolate is not running that call',
        });
      }
    }
    expect(JSON.stringify(result)).not.toContain(VICTIM_SECRET);
    expect(JSON.stringify(result)).not.toContain(VICTIM_DATA);

    const victimResult = await running;
    expect(victimResult).toEqual({ ok: true, data: { secret: VICTIM_SECRET } });
    expect(victim.state.storage.account.get('settings')).toBe(VICTIM_DATA);
    expect(victimFetches).toBe(0);
    expect(victim.state.logs.map((entry) => entry.message)).not.toContain('hostile line under a forged call');
    expect(reports.filter((report) => report.kind === 'capability_borrowing').length).toBeGreaterThan(0);
    expect(reports.find((report) => report.kind === 'capability_borrowing')).toMatchObject({
      integration: 'hostile',
      version: 1,
      runner: runtime.runnerPids()[0],
    });
  });
});

describe('isolate bridge: calls enter on the runner thread while their isolate is idle', () => {
  const stats = async () => (await runtime.stats())[0]!;
  // Memory capabilities that also record the call's log lines and the storage values it writes.
  function recording() {
    const memory = createMemoryCapabilities();
    const lines: string[] = [];
    const written: unknown[] = [];
    const capabilities: Capabilities = {
      ...memory,
      log: (entry) => lines.push(entry.message),
      storage: {
        ...memory.storage,
        set: (scope, key, value) => {
          written.push(value);
          return memory.storage.set(scope, key, value);
        },
      },
    };
    return { capabilities, lines, written };
  }
  // Until the fence after the first call (the isolate's creation went through the pool) comes back.
  async function idleIsolate(versionId: string, capabilities: Capabilities) {
    expect(await invoke(versionId, 'ok', {}, capabilities)).toMatchObject({ ok: true });
    await until(async () => {
      const before = (await stats()).callsOnThread;
      await invoke(versionId, 'ok', {}, capabilities);
      return (await stats()).callsOnThread > before ? true : undefined;
    }, 'a call entered on the runner thread');
  }

  it('enters sequential calls on the runner thread, and sends no version to the pool for them', async () => {
    const capabilities = createMemoryCapabilities();
    await idleIsolate('enter', capabilities);
    const before = await stats();
    for (let i = 0; i < 20; i++)
      expect(await invoke('enter', 'ok', {}, capabilities)).toMatchObject({ ok: true });
    const after = await stats();
    expect(after.callsOnThread - before.callsOnThread).toBeGreaterThanOrEqual(15);
    expect(after.pooledVersions).toBe(before.pooledVersions);
    // Overlapping calls take turns on the thread too (the isolate runs one at a time either way).
    const results = await Promise.all(
      Array.from({ length: 20 }, () => invoke('enter', 'ok', {}, capabilities)),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await stats()).callsOnThread - after.callsOnThread).toBeGreaterThanOrEqual(15);
  });

  it('sends calls started together in one channel message, and each gets its own result, log line and write', async () => {
    await idleIsolate('together', createMemoryCapabilities());
    const before = await stats();
    const runs = Array.from({ length: 20 }, (_, n) => ({ tag: `t${n}`, ...recording() }));
    const results = await Promise.all(
      runs.map((run) => invoke('together', 'log-and-leave', { tag: run.tag }, run.capabilities)),
    );
    const after = await stats();
    for (const [n, run] of runs.entries()) {
      expect(results[n]).toEqual({ ok: true, data: { tag: run.tag } });
      expect(run.lines).toEqual([`left ${run.tag}`]);
      expect(run.written).toEqual([run.tag]);
    }
    // 20 calls and the stats request: far fewer channel messages carried them than one each.
    expect(after.messagesIn - before.messagesIn).toBeGreaterThanOrEqual(21);
    expect(after.deliveriesIn - before.deliveriesIn).toBeLessThanOrEqual(5);
  });

  it('stops a call that holds the runner thread past its slice and runs it again on the pool, its effects once; a second stop within a minute sends the version to the pool', async () => {
    const { capabilities, lines, written } = recording();
    await idleIsolate('slow', capabilities);
    const before = await stats();
    // Far past the slice before its first await, well inside its CPU budget.
    expect(await invoke('slow', 'slow-start', { ms: SPIN_MS }, capabilities)).toEqual({
      ok: true,
      data: { spun: SPIN_MS },
    });
    // The stopped run's write request and log line never left the runner; the rerun's did, once.
    expect(written).toHaveLength(1);
    expect(lines.filter((line) => line === 'slow-start began')).toHaveLength(1);
    // A first stop may be a loaded machine's late timer: the version stays on the thread.
    const once = await stats();
    expect(once.stopsForgiven).toBe(before.stopsForgiven + 1);
    expect(once.pooledVersions).toBe(before.pooledVersions);
    await idleIsolate('slow', capabilities);
    expect(await invoke('slow', 'slow-start', { ms: SPIN_MS }, capabilities)).toEqual({
      ok: true,
      data: { spun: SPIN_MS },
    });
    expect(written).toHaveLength(2);
    expect(lines.filter((line) => line === 'slow-start began')).toHaveLength(2);
    const after = await stats();
    expect(after.pooledVersions).toBe(before.pooledVersions + 1);
    expect(after.pooledFor.stoppedTwice).toBe(before.pooledFor.stoppedTwice + 1);
    // From now on the version enters through the pool.
    const onThread = after.callsOnThread;
    expect(await invoke('slow', 'ok', {}, capabilities)).toMatchObject({ ok: true });
    expect((await stats()).callsOnThread).toBe(onThread);
    // A result through the pool crosses as the run's value, which only the runner measures
    // (src/runner/limits.ts: 8 MiB; the envelope's JSON is 21 characters more than the string).
    const crossing = 8 * 1024 * 1024;
    expect(await invoke('slow', 'oversized', { what: 'result', chars: crossing - 20 }, capabilities)).toEqual(
      {
        ok: false,
        error: { code: 'handler_error', message: 'Action failed.' },
      },
    );
    expect(lines).toContain(
      `the handler's result as JSON is ${crossing + 1} characters; at most ${crossing} cross from the isolate`,
    );
    expect((await stats()).callsOnThread).toBe(onThread);
  });

  it('delivers capability answers on the runner thread: the code after each await runs there', async () => {
    const capabilities = createMemoryCapabilities({
      storage: { account: { 'cache/first': 'one', 'cache/second': 'two' } },
    });
    await idleIsolate('continue', capabilities);
    const before = await stats();
    for (let i = 0; i < 10; i++) {
      expect(await invoke('continue', 'two-awaits', {}, capabilities)).toEqual({
        ok: true,
        data: { first: 'one', second: 'two' },
      });
    }
    const after = await stats();
    expect(after.continuationsOnThread - before.continuationsOnThread).toBeGreaterThanOrEqual(15);
    expect(after.reruns).toEqual(before.reruns);
    expect(after.pooledVersions).toBe(before.pooledVersions);
  });

  it('keeps the code after an await on the pool once a call drew random bytes or set a timer (a rerun could not repeat them)', async () => {
    const capabilities = createMemoryCapabilities({
      storage: { account: { 'cache/first': 'one', 'cache/second': 'two' } },
    });
    await idleIsolate('unrepeatable', capabilities);
    const before = await stats();
    for (const draw of ['random', 'timer', 'random', 'timer']) {
      expect(await invoke('unrepeatable', 'unrepeatable-awaits', { draw }, capabilities)).toEqual({
        ok: true,
        data: { first: 'one', second: 'two' },
      });
    }
    expect((await stats()).continuationsOnThread).toBe(before.continuationsOnThread);
  });

  it('runs a call stopped after an await again, answering what its first run asked from a transcript: every write and log line once', async () => {
    const { capabilities, lines, written } = recording();
    await idleIsolate('after-await', capabilities);
    const before = await stats();
    // Far past the slice after its second await, well inside its CPU budget.
    expect(await invoke('after-await', 'slow-after-await', { ms: SPIN_MS, tag: 'a1' }, capabilities)).toEqual(
      {
        ok: true,
        data: { read: 'a1', spun: SPIN_MS },
      },
    );
    expect(written).toEqual(['a1']);
    expect(lines.filter((line) => line === 'wrote a1')).toHaveLength(1);
    expect(lines.filter((line) => line === 'spun a1')).toHaveLength(1);
    const after = await stats();
    expect(after.reruns).toEqual({ replayed: before.reruns.replayed + 1, diverged: before.reruns.diverged });
    expect(after.stopsForgiven).toBe(before.stopsForgiven + 1);
  });

  it('fails a rerun that asks for something else than its first run, and sends its version to the pool', async () => {
    const { capabilities, lines, written } = recording();
    await idleIsolate('diverges', capabilities);
    const before = await stats();
    const result = await invoke('diverges', 'random-after-await', { ms: SPIN_MS }, capabilities);
    expect(result).toMatchObject({ ok: false, error: { code: 'handler_error' } });
    // The call's log says why (the caller gets the generic failure).
    expect(lines.join('\n')).toMatch(
      /run again from the start.*the rerun asked for storage\.set with other arguments.*depend on the time or on Math\.random/,
    );
    // The first run's write was made; the rerun's, which differs, was not.
    expect(written).toHaveLength(1);
    const after = await stats();
    expect(after.reruns).toEqual({
      replayed: before.reruns.replayed + 1,
      diverged: before.reruns.diverged + 1,
    });
    expect(after.pooledFor.diverged).toBe(before.pooledFor.diverged + 1);
    expect(after.pooledVersions).toBe(before.pooledVersions + 1);
    // From now on its continuations run on the pool, where nothing is stopped and run again.
    expect(await invoke('diverges', 'random-after-await', { ms: 50 }, capabilities)).toEqual({
      ok: true,
      data: { spun: 50 },
    });
    expect(written).toHaveLength(2);
  });

  it('kills a runner that stops answering once a call ran past its budget; the next call gets a new runner', async () => {
    const warnings: string[] = [];
    const own = createIsolatedRuntime({
      runners: 1,
      unresponsiveRunnerMs: 500,
      onWarning: (message) => warnings.push(message),
    });
    const call = (timeoutMs: number) =>
      invoke('stuck', 'ok', {}, createMemoryCapabilities(), { on: own, timeoutMs });
    try {
      expect(await call(10_000)).toMatchObject({ ok: true });
      const [pid] = own.runnerPids();
      // Stands in for a runner thread that never comes back.
      process.kill(pid!, 'SIGSTOP');
      expect(await call(300)).toMatchObject({ ok: false });
      await until(() => (own.runnerPids().includes(pid!) ? undefined : true), 'the stuck runner killed');
      expect(warnings.join('\n')).toMatch(
        /did not answer for 500 ms after a call ran past its budget: killed/,
      );
      expect(await call(10_000)).toMatchObject({ ok: true });
      expect(own.runnerPids()).not.toContain(pid);
    } finally {
      await own.close();
    }
  });

  it('hands over what a call that settled within its entry logged and asked for, before its result', async () => {
    const { capabilities, lines, written } = recording();
    await idleIsolate('leave', capabilities);
    const before = await stats();
    for (const tag of ['a', 'b', 'c']) {
      expect(await invoke('leave', 'log-and-leave', { tag }, capabilities)).toEqual({
        ok: true,
        data: { tag },
      });
      // Both came before the result: the line went with it, the request ahead of it.
      expect(lines.at(-1)).toBe(`left ${tag}`);
      expect(written.at(-1)).toBe(tag);
    }
    expect((await stats()).callsOnThread - before.callsOnThread).toBe(3);
  });

  it('lets WebAssembly compile and FinalizationRegistry work without tasks that run later', async () => {
    const result = await invoke('wasm', 'wasm', {}, createMemoryCapabilities());
    expect(result).toEqual({
      ok: true,
      data: {
        settledAtOnce: true,
        module: true,
        instantiated: true,
        instance: true,
        refused: 'CompileError',
        unregistered: [true, false],
        registry: '[object FinalizationRegistry]',
      },
    });
  });
});

describe('isolate bridge: nothing a handler leaves behind keeps running', () => {
  for (const action of ['leftover-timers', 'leftover-finalizer', 'leftover-loop']) {
    it(`${action}: the runner burns no CPU after the call, and the next calls answer`, async () => {
      const capabilities = createMemoryCapabilities();
      expect((await invoke('leftover', action, {}, capabilities)).ok).toBe(true);
      expect(await invoke('leftover', 'ok', {}, capabilities)).toMatchObject({ ok: true });
      // Whatever was left is stopped within the leftover budget (100 ms of CPU) plus a watchdog tick.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const [pid] = runtime.runnerPids();
      const before = await cpuMs(pid!);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // A loop left running would show about 1,500 ms here.
      expect((await cpuMs(pid!)) - before).toBeLessThan(400);
      const started = Date.now();
      expect(await invoke('leftover', 'ok', {}, capabilities)).toMatchObject({ ok: true });
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  }

  it('reports the leftover work it stopped, naming the integration and the runner', () => {
    const leftover = reports.find((report) => report.kind === 'leftover_work');
    expect(leftover).toMatchObject({ integration: 'leftover', version: 1 });
    expect(leftover?.message).toMatch(/^work a handler left running after its call used \d+ ms of CPU/);
    expect(runtime.runnerPids()).toContain(leftover?.runner);
  });

  it('runs a call that was queued behind leftover work in a fresh isolate', async () => {
    const capabilities = createMemoryCapabilities();
    const left = reports.length;
    expect((await invoke('queued', 'leftover-loop', {}, capabilities)).ok).toBe(true);
    // Two calls at once: the first lets the left loop start, the second waits behind it.
    const [first, second] = await Promise.all([
      invoke('queued', 'ok', {}, capabilities),
      invoke('queued', 'ok', {}, capabilities),
    ]);
    expect(first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: true });
    await until(
      () =>
        reports
          .slice(left)
          .find((report) => report.kind === 'leftover_work' && report.integration === 'queued'),
      'the leftover report',
    );
  });

  it('a runner at rest, its isolates kept, wakes seldom (well under 2.5% of a core), and watches the next call', async () => {
    // A runner of its own: its CPU budget (200 ms) far below the call's wall-clock budget (10 s).
    const own = createIsolatedRuntime({ runners: 1, cpuLimitMs: 200 });
    try {
      const call = (actionName: string) =>
        invoke('at-rest', actionName, {}, createMemoryCapabilities(), { on: own });
      expect(await call('ok')).toMatchObject({ ok: true });
      expect(await call('ok')).toMatchObject({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const [pid] = own.runnerPids();
      const before = await cpuMs(pid!);
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const share = ((await cpuMs(pid!)) - before) / (performance.now() - started);
      // The watchdog on the calls' 5 ms tick all the time used about 4.5% here; on 50 ms at rest, under 1%.
      expect(share).toBeLessThan(0.025);
      // The next call is watched on the calls' tick again: a loop after an await is stopped by its
      // CPU budget, long before the wall-clock one.
      const looping = performance.now();
      expect(await call('loop-after-await')).toMatchObject({ ok: false, error: { code: 'handler_error' } });
      expect(performance.now() - looping).toBeLessThan(5000);
    } finally {
      await own.close();
    }
  });
});

describe('isolate bridge: the channel', () => {
  it("sends a call's console lines before its next capability request, and while it waits", async () => {
    const logs: string[] = [];
    let seenBySecrets: string[] | undefined;
    const memory = createMemoryCapabilities({ secrets: { account: { VICTIM_TOKEN: 't' } } });
    const capabilities: Capabilities = {
      ...memory,
      log: (entry) => logs.push(entry.message),
      secrets: {
        ...memory.secrets,
        get: (name) => {
          seenBySecrets = [...logs];
          return memory.secrets.get(name);
        },
      },
    };
    // Logs its call id, sleeps (no message to the host), then reads a secret: the line rides on
    // that request, or went earlier with a watchdog tick.
    expect(await invoke('channel', 'spy-wait', { ms: 0 }, capabilities)).toEqual({
      ok: true,
      data: { secret: 't' },
    });
    expect(seenBySecrets).toHaveLength(1);
    expect(seenBySecrets?.[0]).toMatch(/^call-id /);

    // A call that waits long: its first line arrives while it still runs.
    const waiting: string[] = [];
    let settled = false;
    const running = invoke(
      'channel',
      'chatty',
      { tag: 'w', ms: 3000 },
      {
        ...createMemoryCapabilities(),
        log: (entry) => waiting.push(entry.message),
      },
    ).finally(() => {
      settled = true;
    });
    await until(() => (waiting.includes('start w') ? true : undefined), 'the first line of a waiting call');
    expect(settled).toBe(false);
    expect(await running).toEqual({ ok: true, data: { tag: 'w' } });
    expect(waiting).toEqual(['start w', 'end w']);
  });

  it('runs more calls at once on one isolate than it has start flags, each with its own log', async () => {
    // 80 calls of one version overlap: past the 64 start flags a call says it started by message.
    const results = await Promise.all(
      Array.from({ length: 80 }, async (_, i) => {
        const lines: string[] = [];
        const result = await invoke(
          'flags',
          'chatty',
          { tag: `c${i}`, ms: 200 },
          {
            ...createMemoryCapabilities(),
            log: (entry) => lines.push(entry.message),
          },
        );
        return { result, lines, i };
      }),
    );
    for (const { result, lines, i } of results) {
      expect(result).toEqual({ ok: true, data: { tag: `c${i}` } });
      expect(lines).toEqual([`start c${i}`, `end c${i}`]);
    }
    // And the isolate runs on normally afterwards.
    expect(await invoke('flags', 'ok', {}, createMemoryCapabilities())).toMatchObject({ ok: true });
  });
});

describe('isolate bridge: waiting requests are bounded', () => {
  it('disposes an isolate that keeps more than 10,000 timers waiting; the runner and the next call are fine', async () => {
    const capabilities = createMemoryCapabilities();
    const [pid] = runtime.runnerPids();
    // Within the bound: the call answers, and its timers are cleared when it ends.
    expect(await invoke('timers', 'timer-bomb', { count: 5000 }, capabilities)).toEqual({
      ok: true,
      data: { scheduled: 5000 },
    });
    expect(await invoke('timers', 'timer-bomb', { count: 5000 }, capabilities)).toMatchObject({ ok: true });
    const logs: string[] = [];
    const bomb = await invoke(
      'timers',
      'timer-bomb',
      { count: 50_000 },
      {
        ...capabilities,
        log: (entry) => logs.push(entry.message),
      },
    );
    expect(bomb).toEqual({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
    expect(logs).toContain(
      'the handler kept more than 10000 timers and capability calls waiting; its isolate was disposed',
    );
    expect(runtime.runnerPids()).toEqual([pid]);
    expect(await invoke('timers', 'ok', {}, capabilities)).toMatchObject({ ok: true });
  });
});

describe('isolate bridge: runtime errors keep their class', () => {
  it('rebuilds each host-side failure as the sdk class the handler imports, with code and properties', async () => {
    const memory = createMemoryCapabilities();
    const capabilities: Capabilities = {
      ...memory,
      fetch: () =>
        Promise.reject(
          new EgressDeniedError(
            'https://localhost',
            'fetch to https://localhost/x refused: localhost resolves to a loopback address',
            'private_address',
          ),
        ),
      storage: {
        ...memory.storage,
        get: () =>
          Promise.reject(
            new StorageValidationError('account', 'settings', 'stored data no longer matches', 'Widen it.'),
          ),
        set: () => Promise.reject(new MachineActorStorageError()),
      },
      secrets: { ...memory.secrets, set: (name) => Promise.reject(new SecretAccessError(name)) },
    };
    const result = await invoke('errors', 'error-classes', {}, capabilities);
    expect(result.ok).toBe(true);
    const seen = (result as { data: Record<string, Record<string, unknown>> }).data;
    const only = (name: string) => ({
      EgressDeniedError: name === 'EgressDeniedError',
      StorageValidationError: name === 'StorageValidationError',
      SecretAccessError: name === 'SecretAccessError',
      MachineActorStorageError: name === 'MachineActorStorageError',
      Error: true,
    });
    expect(seen.fetch).toEqual({
      name: 'EgressDeniedError',
      message: 'fetch to https://localhost/x refused: localhost resolves to a loopback address',
      code: 'EGRESS_DENIED',
      origin: 'https://localhost',
      reason: 'private_address',
      instanceOf: only('EgressDeniedError'),
    });
    expect(seen.storageGet).toEqual({
      name: 'StorageValidationError',
      message: 'ctx.storage.account "settings": stored data no longer matches. Widen it.',
      code: 'STORAGE_VALIDATION_FAILED',
      scope: 'account',
      key: 'settings',
      hint: 'Widen it.',
      instanceOf: only('StorageValidationError'),
    });
    expect(seen.storageSet).toMatchObject({
      name: 'MachineActorStorageError',
      code: 'MACHINE_ACTOR_STORAGE',
      instanceOf: only('MachineActorStorageError'),
    });
    expect(seen.secretsSet).toMatchObject({
      name: 'SecretAccessError',
      code: 'SECRET_ACCESS_DENIED',
      secretName: 'ADMIN_ONLY',
      instanceOf: only('SecretAccessError'),
    });
  });
});
