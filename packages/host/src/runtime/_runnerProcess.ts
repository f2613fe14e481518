// Owns one runner child process seen from the host: forking it, its calls in flight, and the
// messages it sends (the protocol's types: _runnerProtocol.ts).
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { DEFINITION_CHECKED_GLOBAL } from '@platform/sdk/runtime';
import { runnerEntry } from './_runnerEntry.js';
import { RUNNER_ENV, runnerExecArgv } from './_runnerFlags.js';
import { answerCapability, applyLogs, applyUsed } from './_runnerGuest.js';
import type {
  FromRunner,
  InFlight,
  RunnerCall,
  RunnerOutcome,
  RunnerProcess,
  RunnerReport,
  RunnerStats,
  ToRunner,
} from './_runnerProtocol.js';
import { type ResolvedIsolatedVm, resolveIsolatedVm } from './isolatedVm.js';

/** Isolates one runner keeps, and how long one may stay idle, unless told otherwise. */
const MAX_ISOLATES = 32;
const ISOLATE_IDLE_MS = 10 * 60_000;
/** CPU an isolate may use while none of its calls runs (work a handler left behind). */
const LEFTOVER_CPU_MS = 100;
/** Wall time a call may hold a runner's thread (src/runner/_threadSlice.ts, RUN_NOW_TIMEOUT_MS). */
const THREAD_SLICE_MS = 10;
/**
 * How long a runner may take to answer once a call on it ran past its budget. Its thread answers
 * in microseconds unless something holds it, which nothing should (calls enter it for at most
 * 10 ms): past this it is killed, failing its calls in flight, and replaced.
 */
const UNRESPONSIVE_RUNNER_MS = 10_000;

/**
 * Forks a runner: `--no-node-snapshot` (isolated-vm needs it), the permission model reading only
 * the runner's folder and isolated-vm, addons allowed, and {@link RUNNER_ENV} for environment (no
 * secrets, no DATABASE_URL). When it exits, its calls in flight settle with `runner_exit` and `onExit` runs.
 */
export function startRunnerProcess(options: {
  prelude: string;
  memoryLimitMb: number;
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
  onStderr: (line: string) => void;
  isolatedVm?: ResolvedIsolatedVm;
  /** Isolates kept per runner (least recently used idle ones go first). Default 32. */
  maxIsolates?: number;
  /** An isolate idle this long is disposed with its code. Default 10 minutes. */
  idleMs?: number;
  /** CPU an isolate may use while none of its calls runs; past it, it is disposed. Default 100 ms. */
  leftoverCpuMs?: number;
  /** Wall time a call may hold the runner's thread before it is stopped and run on the pool. Default 10 ms. */
  threadSliceMs?: number;
  /** A request refused for naming a call its isolate does not run; an isolate disposed for leftover work. */
  onReport?: (report: RunnerReport) => void;
  /** Killed for not answering (see UNRESPONSIVE_RUNNER_MS); default 10 s. */
  unresponsiveMs?: number;
  /** Operational messages from this side (a runner killed for not answering). */
  onWarning?: (message: string) => void;
}): RunnerProcess {
  const isolatedVm = options.isolatedVm ?? resolveIsolatedVm();
  const child: ChildProcess = fork(runnerEntry(), [isolatedVm.main], {
    execArgv: runnerExecArgv(isolatedVm),
    env: { ...RUNNER_ENV },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  const calls = new Map<string, InFlight>();
  const loaded = new Set<string>();
  const statsWaiting = new Map<number, (stats: RunnerStats | undefined) => void>();
  let nextStats = 1;
  let exited = false;
  let probing = false;

  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    for (const line of text.split('\n')) if (line.trim() !== '') options.onStderr(line);
  });
  // Messages leave once per turn of the event loop, together: the calls, capability answers and
  // abandons of one turn cost both processes one write and one wake-up instead of one each (a
  // write that wakes another process is the dearest part of a call on a loaded machine). Nothing
  // is written once the runner has gone: its calls are settled by 'exit'.
  let outbox: ToRunner[] = [];
  const flush = () => {
    const messages = outbox;
    outbox = [];
    if (exited || !child.connected) return;
    child.send(messages.length === 1 ? messages[0]! : { type: 'batch', messages });
  };
  const post = (message: ToRunner) => {
    // With other calls in flight more messages are likely this turn (requests of other sockets):
    // wait for the turn's end. Alone, leave as soon as this task's promise work is done.
    if (outbox.length === 0) {
      if (calls.size > 1) setImmediate(flush);
      else process.nextTick(flush);
    }
    outbox.push(message);
  };

  post({
    type: 'init',
    prelude: options.prelude,
    definitionCheckedGlobal: DEFINITION_CHECKED_GLOBAL,
    memoryLimitMb: options.memoryLimitMb,
    maxIsolates: options.maxIsolates ?? MAX_ISOLATES,
    idleMs: options.idleMs ?? ISOLATE_IDLE_MS,
    leftoverCpuMs: options.leftoverCpuMs ?? LEFTOVER_CPU_MS,
    threadSliceMs: options.threadSliceMs ?? THREAD_SLICE_MS,
  });

  const report = (kind: RunnerReport['kind'], versionId: unknown, message: unknown) =>
    options.onReport?.({
      kind,
      versionId: String(versionId),
      runner: child.pid ?? -1,
      message: String(message),
    });

  child.on('message', (raw) => {
    const message = raw as FromRunner | { type: 'batch'; messages: FromRunner[] };
    if (message.type !== 'batch') receive(message);
    else if (Array.isArray(message.messages)) for (const each of message.messages) receive(each);
  });

  function receive(message: FromRunner) {
    if (message.type === 'cap') {
      // The runner answers only for a call of the isolate that asks; checked again here: the
      // call must be in flight on this runner, for the version whose isolate sent it.
      const call = calls.get(message.callId);
      const own = call !== undefined && call.versionId === message.versionId;
      if (own) {
        applyLogs(call, message.logs);
        applyUsed(call, message.used);
      }
      // An unknown id is a call that just timed out here; another version's call is an attack.
      if (call !== undefined && !own) {
        report(
          'capability_borrowing',
          message.versionId,
          'refused a capability request for a call this runner did not start for that version',
        );
      }
      void answerCapability(own ? call.capabilities : undefined, message.method, message.args).then(
        (reply) => {
          post({ type: 'cap-result', capId: message.capId, reply });
        },
      );
    } else if (message.type === 'security') {
      report('capability_borrowing', message.versionId, message.message);
    } else if (message.type === 'leftover') {
      report(
        'leftover_work',
        message.versionId,
        `work a handler left running after its call used ${message.cpuMs} ms of CPU; its isolate was disposed`,
      );
    } else if (message.type === 'log') {
      applyLogs(calls.get(message.callId), message.entries);
    } else if (message.type === 'stats') {
      statsWaiting.get(message.statsId)?.({
        pid: child.pid ?? -1,
        isolates: message.isolates,
        versions: message.versions,
        callsOnThread: message.callsOnThread,
        callsOnPool: message.callsOnPool,
        pooledVersions: message.pooledVersions,
        pooledFor: message.pooledFor,
        stopsForgiven: message.stopsForgiven,
        continuationsOnThread: message.continuationsOnThread,
        reruns: message.reruns,
        messagesIn: message.messagesIn,
        deliveriesIn: message.deliveriesIn,
      });
      statsWaiting.delete(message.statsId);
    } else if (message.type === 'evicted') {
      loaded.delete(message.versionId);
    } else if (message.type === 'result') {
      const call = calls.get(message.callId);
      calls.delete(message.callId);
      applyLogs(call, message.logs);
      if (message.ok) applyUsed(call, message.used);
      call?.settle(message.ok ? { ok: true, value: message.value } : { ok: false, error: message.error });
    }
  }

  child.on('exit', (code, signal) => {
    exited = true;
    for (const call of calls.values()) {
      call.settle({
        ok: false,
        error: { kind: 'runner_exit', message: `the runner process exited (${signal ?? code})` },
      });
    }
    calls.clear();
    for (const resolve of statsWaiting.values()) resolve(undefined);
    statsWaiting.clear();
    options.onExit(code, signal);
  });
  child.on('error', () => {
    // 'exit' follows and settles the calls.
  });

  return {
    pid: child.pid ?? -1,
    get inFlight() {
      return calls.size;
    },
    get exited() {
      // A killed runner disconnects before its 'exit' event: no new call goes to it meanwhile.
      return exited || !child.connected;
    },
    has(versionId) {
      return loaded.has(versionId);
    },
    stats,
    async call(call) {
      const outcome = await send(call, loaded.has(call.versionId));
      if (outcome.ok || outcome.error.kind !== 'missing_code') return outcome;
      // The runner evicted the version while this call was on its way: send the code along.
      loaded.delete(call.versionId);
      return send(call, false);
    },
    stop() {
      if (exited) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      });
    },
  };

  function stats(): Promise<RunnerStats | undefined> {
    if (exited || !child.connected) return Promise.resolve(undefined);
    const statsId = nextStats++;
    return new Promise((resolve) => {
      statsWaiting.set(statsId, resolve);
      post({ type: 'stats', statsId });
    });
  }

  // A call ran past its budget: the runner should have stopped it. It must at least still answer.
  function probe() {
    if (probing || exited) return;
    probing = true;
    const unresponsiveMs = options.unresponsiveMs ?? UNRESPONSIVE_RUNNER_MS;
    const timer = setTimeout(() => {
      if (exited) return;
      options.onWarning?.(
        `did not answer for ${unresponsiveMs} ms after a call ran past its budget: killed; its calls in flight failed`,
      );
      child.kill('SIGKILL');
    }, unresponsiveMs);
    void stats().then(() => {
      probing = false;
      clearTimeout(timer);
    });
  }

  async function send(call: RunnerCall, withoutScript: boolean): Promise<RunnerOutcome> {
    if (exited || !child.connected) {
      return { ok: false, error: { kind: 'runner_exit', message: 'the runner process has exited' } };
    }
    // Random: no isolate can guess or enumerate the id of a call it does not run.
    const callId = randomUUID();
    const script = withoutScript ? undefined : await call.script();
    if (call.ephemeral) loaded.delete(call.versionId);
    else loaded.add(call.versionId);
    return new Promise<RunnerOutcome>((resolve) => {
      const deadline = Date.now() + call.timeoutMs;
      const timer = setTimeout(() => {
        calls.delete(callId);
        post({ type: 'abandon', callId });
        probe();
        resolve({
          ok: false,
          error: { kind: 'timeout', message: `the handler exceeded its ${call.timeoutMs} ms budget` },
        });
      }, call.timeoutMs);
      calls.set(callId, {
        versionId: call.versionId,
        capabilities: call.capabilities,
        settle: (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        },
      });
      post({
        type: 'call',
        callId,
        versionId: call.versionId,
        ...(script === undefined ? {} : { script }),
        request: call.request,
        // The wall-clock end of the timer above, which the guest reads as ctx.remainingMs().
        deadline,
        cpuLimitMs: call.cpuLimitMs,
        ...(call.ephemeral ? { ephemeral: true } : {}),
      });
    });
  }
}
