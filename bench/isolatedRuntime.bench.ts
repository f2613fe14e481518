import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildBundle, createInProcessRuntime, createIsolatedRuntime, type Runtime } from '@platform/host';
import { createMemoryCapabilities } from '@platform/sdk/runtime';
import { cpuPerOperation, cpuSnapshot } from './_cpu.js';
import { measure, printTable } from './_run.js';

const actor = { kind: 'user', userId: 'u1', accountId: 'a1' } as const;

function call(runtime: Runtime, versionId: string, bundle: string, actionName: string, rawBody: string) {
  return runtime.invokeAction({
    version: { id: versionId, loadBundle: async () => bundle },
    capabilities: createMemoryCapabilities({
      storage: { account: { 'cache/count': 3 } },
      secrets: { account: { TOKEN: 't' } },
    }),
    actor,
    timeoutMs: 5000,
    actionName,
    rawBody,
  });
}

function rssKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? Number.NaN);
}

const msSince = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

/** Isolated runtime vs in-process in the same run: per-call overhead, cold start, memory per isolate. */
export async function benchIsolatedRuntime(): Promise<void> {
  const bundle = await buildBundle(fileURLToPath(new URL('./fixtures/runtimeBench.ts', import.meta.url)));
  const inProcess = createInProcessRuntime();
  const isolated = createIsolatedRuntime({ runners: 1, cpuLimitMs: 50 });
  // The floor of any call that crosses to a runner: one IPC round trip to a child that echoes.
  const echo = fork(fileURLToPath(new URL('./fixtures/echoChild.cjs', import.meta.url)), [], {
    serialization: 'json',
  });
  const request = JSON.stringify({ op: 'invokeAction', actor, actionName: 'trivial', rawBody: '{"n":1}' });
  const roundTrip = () =>
    new Promise((resolve) => {
      echo.once('message', resolve);
      echo.send({ type: 'call', callId: 'c1', versionId: 'v1', request, cpuLimitMs: 50 });
    });
  try {
    await call(inProcess, 'v1', bundle, 'trivial', '{"n":1}');
    const first = await call(isolated, 'v1', bundle, 'trivial', '{"n":1}');
    if (!first.ok) throw new Error(`isolated bench call failed: ${JSON.stringify(first)}`);
    const [before] = await isolated.stats();
    const rows = await measure({
      'in-process: trivial action': () => call(inProcess, 'v1', bundle, 'trivial', '{"n":1}'),
      'in-process: two bridged calls': () => call(inProcess, 'v1', bundle, 'two-calls', '{}'),
      'IPC round trip to a forked echo child': roundTrip,
      'isolated: trivial action': () => call(isolated, 'v1', bundle, 'trivial', '{"n":1}'),
      'isolated: two bridged calls': () => call(isolated, 'v1', bundle, 'two-calls', '{}'),
    });
    printTable(
      'Runtime per-call overhead (baseline: in-process trivial)',
      rows,
      'in-process: trivial action',
    );
    // Issue 17's per-call goals (means, set on a machine whose IPC floor was 103 us): the multiple of
    // this run's IPC floor says how a figure compares across machines.
    const floor = rows.find((row) => row.name === 'IPC round trip to a forked echo child')!.meanUs;
    for (const [name, goalUs] of [
      ['isolated: trivial action', 150],
      ['isolated: two bridged calls', 300],
    ] as const) {
      const { meanUs } = rows.find((row) => row.name === name)!;
      console.log(
        `  ${name.padEnd(30)} ${`${meanUs.toFixed(1)} us`.padStart(10)} = ${(meanUs / floor).toFixed(1).padStart(4)}x IPC floor   goal <= ${goalUs} us: ${meanUs <= goalUs ? 'met' : 'not met'}`,
      );
    }
    // Where the isolated calls entered their isolate: on the runner's thread, or through the pool.
    const [after] = await isolated.stats();
    if (before !== undefined && after !== undefined) {
      const onThread = after.callsOnThread - before.callsOnThread;
      const onPool = after.callsOnPool - before.callsOnPool;
      console.log(
        `  (isolated calls entered on the runner's thread: ${onThread.toLocaleString('en-US')} of ${(onThread + onPool).toLocaleString('en-US')}; versions sent to the pool: ${after.pooledVersions} (stopped twice ${after.pooledFor.stoppedTwice}, mean entry over 1 ms ${after.pooledFor.mean}); first stops forgiven: ${after.stopsForgiven})`,
      );
      console.log(
        `  (capability answers delivered on the runner's thread: ${(after.continuationsOnThread - before.continuationsOnThread).toLocaleString('en-US')}; calls rerun from a transcript: ${after.reruns.replayed - before.reruns.replayed}, of which diverged ${after.reruns.diverged - before.reruns.diverged})`,
      );
    }

    // Calls overlapping, as under load: the host and the runner send what one turn produced in one
    // channel message (`post` in _runnerProcess.ts), so the wake-ups per call drop as calls overlap.
    const [beforeOverlap] = await isolated.stats();
    const cpuBefore = cpuSnapshot();
    const overlapped = 4000;
    const started = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next++ < overlapped) await call(isolated, 'v1', bundle, 'trivial', '{"n":1}');
      }),
    );
    const seconds = msSince(started) / 1000;
    const [afterOverlap] = await isolated.stats();
    console.log(
      `\nIsolated trivial calls, 10 at once on one runner: ${Math.round(overlapped / seconds).toLocaleString('en-US')} calls/s`,
    );
    console.log(`  ${cpuPerOperation(cpuBefore, cpuSnapshot(), overlapped, 'call', 'host')}`);
    if (beforeOverlap !== undefined && afterOverlap !== undefined) {
      const messages = afterOverlap.messagesIn - beforeOverlap.messagesIn;
      const deliveries = afterOverlap.deliveriesIn - beforeOverlap.deliveriesIn;
      console.log(
        `  (messages from the host: ${messages.toLocaleString('en-US')} in ${deliveries.toLocaleString('en-US')} channel messages, ${(messages / Math.max(1, deliveries)).toFixed(1)} each)`,
      );
    }

    // Cold start: a version the runner has never compiled, then the same version in a fresh isolate
    // (after the CPU watchdog disposed the old one), created from the V8 code cache. The warm call
    // subtracted is one made after the runner has finished warming the version's code cache (the
    // call right after the first one waits for that compile).
    const warm: number[] = [];
    const noCache: number[] = [];
    const withCache: number[] = [];
    for (let i = 0; i < 8; i++) {
      let started = process.hrtime.bigint();
      await call(isolated, `cold-${i}`, bundle, 'trivial', '{"n":1}');
      noCache.push(msSince(started));
      await call(isolated, `cold-${i}`, bundle, 'trivial', '{"n":1}');
      started = process.hrtime.bigint();
      await call(isolated, `cold-${i}`, bundle, 'trivial', '{"n":1}');
      warm.push(msSince(started));
      await call(isolated, `cold-${i}`, bundle, 'burn', '{}');
      started = process.hrtime.bigint();
      await call(isolated, `cold-${i}`, bundle, 'trivial', '{"n":1}');
      withCache.push(msSince(started));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const goal = (value: number, limit: number, unit: string) =>
      `goal <= ${limit} ${unit}: ${value <= limit ? 'met' : 'not met'}`;
    const coldWithCache = median(withCache) - median(warm);
    console.log('\nIsolate cold start (first call on a new isolate, median of 8, warm call subtracted)');
    console.log(`  without code cache: ${(median(noCache) - median(warm)).toFixed(1)} ms`);
    console.log(
      `  with code cache:    ${coldWithCache.toFixed(1).padEnd(6)} ms   ${goal(coldWithCache, 20, 'ms')}`,
    );
    console.log(
      `  (bundle ${(bundle.length / 1024).toFixed(0)} KiB; a warm call ${median(warm).toFixed(2)} ms)`,
    );

    // Memory: runner RSS before and after 20 more isolates of distinct versions.
    const [pid] = isolated.runnerPids();
    if (pid !== undefined) {
      // Read once the runner is idle: it makes a spare isolate in the background after each one it creates.
      const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
      await settle();
      const before = rssKb(pid);
      for (let i = 0; i < 20; i++) await call(isolated, `mem-${i}`, bundle, 'trivial', '{"n":1}');
      await settle();
      const perIsolate = (rssKb(pid) - before) / 20 / 1024;
      console.log(
        `\nMemory per isolate (runner RSS over 20 isolates): ${perIsolate.toFixed(1)} MiB   ${goal(perIsolate, 8, 'MiB')}`,
      );
    }
  } finally {
    echo.kill();
    await isolated.close();
    await inProcess.close();
  }
}
