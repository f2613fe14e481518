// Owns the host side of the runner's message protocol: what goes each way, a call in flight, the
// runner's stats and the handle of one runner process (see src/runner/README.md).
import type { Capabilities } from '@platform/sdk/runtime';

/** Why a call failed in the runner (`error`: the guest threw). */
export type RunnerFailureKind =
  | 'cpu'
  | 'memory'
  | 'requests'
  | 'size'
  | 'disposed'
  | 'error'
  | 'missing_code';

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

export type FromRunner =
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
export type ToRunner =
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

export interface InFlight {
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
