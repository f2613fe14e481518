// Owns the runner process's shared state: the settings `init` sets, the versions, isolates and calls
// it holds, and the counters its stats report. Every other runner module reads and changes these.
import { createRequire } from 'node:module';
import type IsolatedVm from 'isolated-vm';

export type Ivm = typeof IsolatedVm;

export const ivm: Ivm = createRequire(import.meta.url)(process.argv[2] as string);

/** A compiled script with the code cache fields isolated-vm sets (its types leave some out). */
export type CompiledScript = IsolatedVm.Script & {
  cachedData?: IsolatedVm.ExternalCopy<ArrayBuffer>;
  cachedDataRejected?: boolean;
};

/** Why an isolate was disposed (`failure` turns it into the call's error). */
export type DisposeReason =
  | 'requests'
  | 'leftover'
  | 'diverged'
  | 'cpu'
  | 'stopped'
  | 'disposed'
  | 'evicted'
  | 'ephemeral'
  | 'timeout';

/** One request of a call and the answer it got (see TRANSCRIPT_ENTRIES). */
export interface TranscriptRecord {
  method: string;
  args: string;
  reply: string | undefined;
}

/** What a continuation stopped on this thread leaves for its rerun. */
export interface Replay {
  transcript: TranscriptRecord[];
  logLines: number;
}

/** One isolate with the prelude loaded and, once taken by a version, that version loaded. */
// `versionId`, `run`, `deliver` and `enter` are set before anything reads them (a spare has no
// version until createEntry gives it one).
export interface Entry {
  versionId: string;
  isolate: IsolatedVm.Isolate;
  run: IsolatedVm.Reference;
  deliver: IsolatedVm.Reference;
  enter: IsolatedVm.Reference;
  context: IsolatedVm.Context | undefined;
  disposed: boolean;
  reason: DisposeReason | undefined;
  diverged?: string;
  lastUsed: number;
  idleCpuStart: bigint | undefined;
  idleAllowanceNs: bigint;
  pending: number;
  poolTasks: number;
  poolIdle: Array<() => void>;
  ranNow: boolean;
  drainedAt: number;
  randomDraws: number;
  ended: Set<string>;
  reports: { since: number; sent: number; held: number };
  post: (kind: unknown, id: unknown, a?: unknown, b?: unknown, c?: unknown, d?: unknown) => void;
  log: (callId: unknown, text: unknown) => void;
  startFlags: Int32Array;
  freeStartSlots: number[];
}

/** What uses an isolate: one call from the host (see runCall). */
export interface Call {
  entry: Entry;
  versionId: string;
  timers: Set<ReturnType<typeof setTimeout>>;
  logLines: number;
  logChars: number;
  logs: string[] | undefined;
  logBytes: number;
  cpuStart: bigint | undefined;
  cpuLimitNs: bigint;
  slot: number;
  settle: ((value: string | undefined) => void) | undefined;
  fail: ((error: Error) => void) | undefined;
  transcript: TranscriptRecord[] | undefined;
  transcriptBytes: number;
  randomDraws: number;
  replay: TranscriptRecord[] | undefined;
  replayLogs: number;
  rerun: Replay | undefined;
  abandoned?: boolean;
  done?: boolean;
}

/** A version's code and what the runner learnt of it (see RUN_NOW_MEAN_NS). */
export interface Version {
  script: string;
  checked: boolean;
  cachedData: IsolatedVm.ExternalCopy<ArrayBuffer> | undefined;
  cacheWarm: boolean;
  compiled?: boolean;
  entryNs?: number;
  continuationNs?: number;
}

/** Set by `init` (the host holds the defaults); see the constants in _threadSlice.ts. */
export const settings = {
  RUN_NOW_TIMEOUT_MS: 0,
  RUN_NOW_TIMEOUT_NS: 0n,
  RUN_NOW_MEAN_NS: 0,
  memoryLimitMb: 0,
  // The global set to true in an isolate made for a version that runs calls while its bundle's top
  // level runs: the host checked that definition when it installed the version, in an isolate loaded
  // only to read it (`ephemeral`, where it is not set), so defineIntegration skips checking it again.
  definitionCheckedGlobal: undefined as string | undefined,
  maxIsolates: 0,
  idleMs: 0,
  leftoverCpuNs: 0n,
  preludeText: '',
};

// The prelude's code cache, shared by every isolate of the runner.
export const preludeState = {
  cache: undefined as IsolatedVm.ExternalCopy<ArrayBuffer> | undefined,
  warm: false,
};

// Versions sent to the pool, remembered past eviction; the oldest are forgotten past this many.
export const POOLED_VERSIONS_KEPT = 4096;
export const pooledVersions = new Map<string, string>();
// versionId -> when an entry of it was last stopped without being sent to the pool (as many kept).
export const lastStops = new Map<string, number>();

/** The runner's stats (see the `stats` message). */
export const counters = {
  // Why versions went to the pool since this runner started, and stops that left their version on
  // this thread (its stats).
  pooledFor: { stoppedTwice: 0, mean: 0, diverged: 0 },
  stopsForgiven: 0,
  continuationsOnThread: 0,
  reruns: { replayed: 0, diverged: 0 },
  // Calls entered each way since this runner started (its stats).
  callsOnThread: 0,
  callsOnPool: 0,
  // Messages from the host, and the channel messages that carried them (a batch is one; its stats).
  messagesIn: 0,
  deliveriesIn: 0,
};

/** versionId -> { script, checked, cachedData, cacheWarm, entryNs?, continuationNs? } (see RUN_NOW_MEAN_NS) */
export const versions = new Map<string, Version>();
/** versionId -> Promise<Entry>; an Entry is one isolate with the version loaded. */
export const entries = new Map<string, Promise<Entry>>();
/** versionId -> Entry, once created: what eviction looks at. */
export const ready = new Map<string, Entry>();
/**
 * callId -> { entry, versionId, cpuStart, cpuLimitNs, abandoned? }: what uses each isolate.
 * `cpuStart` is set when the call's code starts in the isolate (the prelude says so); until then
 * the isolate's CPU is charged to its leftover budget.
 */
export const calls = new Map<string, Call>();

export function cpuTimeOf(entry: Entry): bigint {
  try {
    return entry.isolate.cpuTime;
  } catch {
    return 0n;
  }
}
