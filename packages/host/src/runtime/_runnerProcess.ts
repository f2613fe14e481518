import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import {
  type Capabilities,
  DEFINITION_CHECKED_GLOBAL,
  type LogEntry,
  type StorageRef,
  toWireError,
} from '@platform/sdk/runtime';
import { runnerEntry } from './_runnerEntry.js';
import { type ResolvedIsolatedVm, resolveIsolatedVm } from './isolatedVm.js';

/** Why a call failed in the runner (`error`: the guest threw). */
type RunnerFailureKind = 'cpu' | 'memory' | 'requests' | 'size' | 'disposed' | 'error' | 'missing_code';

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

/** What a runner reports about partner code it refused or stopped. */
export interface RunnerReport {
  readonly kind: 'capability_borrowing' | 'leftover_work';
  readonly versionId: string;
  readonly runner: number;
  readonly message: string;
}

/** How a call into a runner ended: the guest's JSON result, or why there is none. */
export type RunnerOutcome =
  | { readonly ok: true; readonly value: string }
  | {
      readonly ok: false;
      readonly error: {
        readonly kind: RunnerFailureKind | 'runner_exit' | 'timeout';
        readonly message: string;
        /** The thrown error's name, for `error`. */
        readonly name?: string;
      };
    };

export interface RunnerCall {
  readonly versionId: string;
  /** The isolate script, sent only the first time this runner sees the version. */
  readonly script: () => Promise<string>;
  readonly request: string;
  readonly capabilities: Capabilities;
  readonly cpuLimitMs: number;
  readonly timeoutMs: number;
  /** Load the version for this call only: its isolate and code are dropped afterwards. */
  readonly ephemeral?: boolean;
}

type FromRunner =
  | { type: 'ready' }
  | {
      type: 'cap';
      callId: string;
      versionId: string;
      capId: number;
      method: string;
      args: string;
      logs?: unknown;
      used?: unknown;
    }
  | { type: 'security'; kind: 'capability_borrowing'; versionId: string; message: string }
  | { type: 'leftover'; versionId: string; cpuMs: number }
  | { type: 'log'; callId: string; entries: unknown }
  | { type: 'evicted'; versionId: string }
  | {
      type: 'stats';
      statsId: number;
      isolates: number;
      versions: number;
      callsOnThread: number;
      callsOnPool: number;
      pooledVersions: number;
      pooledFor: PooledFor;
      stopsForgiven: number;
      continuationsOnThread: number;
      reruns: Reruns;
      messagesIn: number;
      deliveriesIn: number;
    }
  | { type: 'result'; callId: string; ok: true; value: string; logs?: unknown; used?: unknown }
  | {
      type: 'result';
      callId: string;
      ok: false;
      error: { kind: RunnerFailureKind; message: string; name?: string };
      logs?: unknown;
    };

/** What the host sends a runner; each turn's messages travel together (see `post`). */
type ToRunner =
  | {
      type: 'init';
      prelude: string;
      /** Set to true in each isolate made for a version not loaded only to read it (see the sdk's `DEFINITION_CHECKED_GLOBAL`). */
      definitionCheckedGlobal: string;
      memoryLimitMb: number;
      maxIsolates: number;
      idleMs: number;
      leftoverCpuMs: number;
      threadSliceMs: number;
    }
  | {
      type: 'call';
      callId: string;
      versionId: string;
      script?: string;
      request: string;
      deadline: number;
      cpuLimitMs: number;
      ephemeral?: true;
    }
  | { type: 'cap-result'; capId: number; reply: string }
  | { type: 'abandon'; callId: string }
  | { type: 'stats'; statsId: number };

interface InFlight {
  readonly versionId: string;
  readonly capabilities: Capabilities;
  readonly settle: (outcome: RunnerOutcome) => void;
}

/**
 * Versions sent to the pool, by why: stopped at the slice twice within a minute, entries whose
 * mean CPU passed a millisecond, and reruns that did not repeat their first run.
 */
export interface PooledFor {
  readonly stoppedTwice: number;
  readonly mean: number;
  readonly diverged: number;
}

/**
 * Calls run again after a continuation on the runner's thread was stopped (answered from their
 * first run's transcript), and those of them that asked for something else and failed.
 */
export interface Reruns {
  readonly replayed: number;
  readonly diverged: number;
}

export interface RunnerStats {
  readonly pid: number;
  readonly isolates: number;
  readonly versions: number;
  /** Calls entered on the runner's own thread since it started (no hop to an isolate thread). */
  readonly callsOnThread: number;
  /** Calls entered through isolated-vm's thread pool since it started. */
  readonly callsOnPool: number;
  /** Versions whose calls now always enter through the pool (a call of theirs held the thread). */
  readonly pooledVersions: number;
  /** Why versions were sent to the pool since the runner started (see src/runner/_threadSlice.ts, RUN_NOW_TIMEOUT_MS). */
  readonly pooledFor: PooledFor;
  /** Entries stopped at the slice that left their version on the thread (a first stop in a minute). */
  readonly stopsForgiven: number;
  /** Capability answers delivered on the runner's thread, the code after them run there. */
  readonly continuationsOnThread: number;
  readonly reruns: Reruns;
  /** Messages the runner took from the host, and the channel messages that carried them (see `post`). */
  readonly messagesIn: number;
  readonly deliveriesIn: number;
}

/** One runner child process and the calls in flight on it. */
export interface RunnerProcess {
  readonly pid: number;
  readonly inFlight: number;
  readonly exited: boolean;
  /** Whether this runner holds the version's code (its isolate may still have to be created). */
  has(versionId: string): boolean;
  /** Isolates alive and versions whose code the runner holds (undefined once it has exited). */
  stats(): Promise<RunnerStats | undefined>;
  call(call: RunnerCall): Promise<RunnerOutcome>;
  stop(): Promise<void>;
}

/**
 * A runner's whole environment: nothing of the host's (its secrets), but one malloc setting. With
 * glibc's arena per thread (the runner's isolate threads each allocate) ~0.3 MiB per isolate stayed
 * unreturned (bench: runner RSS over 20 isolates 7.9-8.2 -> 7.6-7.7 MiB, calls no slower). Other C
 * libraries ignore it.
 */
export const RUNNER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };

/**
 * Node flags of a runner: isolated-vm needs `--no-node-snapshot` and addons; the permission model
 * (`--permission` from Node 22, `--experimental-permission` on 20) lets it read only the runner's
 * folder and isolated-vm's, and spawn no process or worker; V8's young generation of each isolate
 * is sized so that a bundle's top level runs without a scavenge.
 */
export function runnerExecArgv(isolatedVm: ResolvedIsolatedVm = resolveIsolatedVm()): string[] {
  const permission = process.allowedNodeEnvironmentFlags.has('--permission')
    ? '--permission'
    : '--experimental-permission';
  return [
    '--no-node-snapshot',
    permission,
    // (runnerEntry: from source, the runner is bundled into that folder before it is forked.)
    `--allow-fs-read=${dirname(runnerEntry())}/*`,
    ...isolatedVm.readDirs.map((dir) => `--allow-fs-read=${dir}/*`),
    // node-gyp-build (isolated-vm 6.x/7.x) probes this file to pick glibc or musl prebuilds.
    '--allow-fs-read=/etc/alpine-release',
    '--allow-addons',
    '--no-warnings',
    // A new isolate's young generation starts at 2 MiB (isolated-vm's 128 MiB limit gave 1 MiB):
    // a bundle's top level (zod's classes, the guest engine) left ~2.9 MiB that two scavenges copied
    // while it ran, 5-6 ms of a 14-20 ms run; now none. Bounded at 4 MiB (Node's main isolate
    // otherwise grows to 16). Measured in the runner: cold start with code cache 24-26 -> 19-20 ms,
    // memory per isolate 6.7-7.0 -> 5.5-5.9 MiB (fewer objects promoted into sparse old pages).
    '--min-semi-space-size=2',
    '--max-semi-space-size=4',
  ];
}

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

/**
 * A call's console lines from its runner, in order: JSON text each (the prelude's), batched with
 * the call's next message. Anything else (not an array, a line that is not a JSON object) is dropped.
 */
export function applyLogs(call: { readonly capabilities: Capabilities } | undefined, entries: unknown): void {
  if (call === undefined || !Array.isArray(entries)) return;
  for (const entry of entries) {
    try {
      const parsed: unknown = JSON.parse(String(entry));
      // The call's logger checks level and message; a line that is no object never reaches it.
      if (typeof parsed === 'object' && parsed !== null) call.capabilities.log(parsed as LogEntry);
    } catch {
      // A log line that is not JSON is dropped; it cannot come from the prelude.
    }
  }
}

/**
 * Preloaded storage values a call's guest says it used (JSON text of `{ scope, key }` objects, with
 * the call's next message): they count as read before that message is handled. Anything else is
 * dropped; the host capabilities only accept keys they preloaded for this call.
 */
export function applyUsed(call: { readonly capabilities: Capabilities } | undefined, used: unknown): void {
  const storage = call?.capabilities.storage;
  if (storage?.preloadUsed === undefined || typeof used !== 'string') return;
  let refs: unknown;
  try {
    refs = JSON.parse(used);
  } catch {
    return;
  }
  if (!Array.isArray(refs)) return;
  storage.preloadUsed(
    refs.filter(
      (ref): ref is StorageRef =>
        typeof ref === 'object' &&
        ref !== null &&
        (ref.scope === 'account' || ref.scope === 'user') &&
        typeof ref.key === 'string',
    ),
  );
}

// Every capability call is checked again here: the method must be known and the arguments JSON.
async function answerCapability(
  capabilities: Capabilities | undefined,
  method: string,
  argsJson: string,
): Promise<string> {
  try {
    if (capabilities === undefined) throw new Error('refused: no such call is running for this version');
    const args = JSON.parse(argsJson) as unknown[];
    if (!Array.isArray(args)) throw new TypeError('capability arguments must be a JSON array');
    const [a, b, c] = args as [never, never, never];
    let value: unknown;
    switch (method) {
      case 'fetch':
        value = await capabilities.fetch(a);
        break;
      case 'storage.get':
        value = await capabilities.storage.get(a, b);
        break;
      case 'storage.set':
        value = await capabilities.storage.set(a, b, c);
        break;
      case 'storage.delete':
        value = await capabilities.storage.delete(a, b);
        break;
      case 'secrets.get':
        value = await capabilities.secrets.get(a);
        break;
      case 'secrets.set':
        value = await capabilities.secrets.set(a, b);
        break;
      case 'checkpoint':
        // No arguments: whatever the guest sent is ignored; the call's own writes are saved.
        value = await capabilities.checkpoint();
        break;
      default:
        throw new Error(`unknown capability "${method}"`);
    }
    return JSON.stringify({ ok: true, value });
  } catch (error) {
    // Class name, message, code and properties: the guest rebuilds the sdk's own error class.
    return JSON.stringify({ ok: false, error: toWireError(error) });
  }
}
