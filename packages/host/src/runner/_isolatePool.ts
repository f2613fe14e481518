// Owns the runner's isolates: the spare made ahead, a version's isolate (compiled with its code
// cache), eviction past the limits, disposal, and work sent to isolated-vm's thread pool.
import { randomBytes } from 'node:crypto';
import { send } from './_outbox.js';
import { START_SLOTS } from './_startFlags.js';
import type { Call, CompiledScript, DisposeReason, Entry } from './_state.js';

/** What each isolate's `__platformBridge` calls: the capability bridge's, handed in by the entry. */
export interface IsolateBridge {
  poster(entry: Entry): Entry['post'];
  logger(entry: Entry): Entry['log'];
  subtle(op: unknown, hash: unknown, key: unknown, data: unknown): string;
  beginner(entry: Entry): (callId: unknown) => void;
}

// Set once by runner.mts before the first isolate: the bridge calls into the pool (to dispose an
// isolate, to queue pool work), so the pool takes it by registration rather than importing it.
let bridge: IsolateBridge;

/** Called once by the entry (runner.mts), before any isolate is made. */
export function installBridge(capabilityBridge: IsolateBridge): void {
  bridge = capabilityBridge;
}

import { calls, cpuTimeOf, entries, ivm, preludeState, ready, settings, versions } from './_state.js';

// An isolate that took calls on this thread gets an empty task on the pool at most this often while
// idle: tasks V8 posted meanwhile (garbage collection's, none that runs JavaScript) run only there.
export const DRAIN_MS = 50;
export const PRELUDE_FILENAME = 'platform:prelude.js';
export const bundleFilename = (versionId: string): string => `platform:bundle/${versionId}.js`;

// One isolate with the prelude loaded and no version yet, made ahead while the runner has nothing
// else to do: a version's cold start then only compiles and runs its bundle. Host code only runs
// in it (the prelude); it becomes one version's isolate and is never reused for another. At most
// one per runner, made after the first isolate this runner creates.
export let spare: Promise<Entry> | undefined;

// A new isolate and context with the bridge and the prelude: no partner code has run in it.
export async function preparedEntry(): Promise<Entry> {
  const isolate = new ivm.Isolate({ memoryLimit: settings.memoryLimitMb });
  // post, log, startFlags and freeStartSlots are set below, before anything reads them.
  const entry = {
    versionId: undefined,
    isolate,
    run: undefined,
    deliver: undefined,
    context: undefined,
    disposed: false,
    reason: undefined,
    lastUsed: Date.now(),
    // CPU clock when the isolate last had no call running: what it uses from there is leftover work.
    idleCpuStart: undefined,
    idleAllowanceNs: 0n,
    pending: 0,
    // Work sent to the pool and not finished (see RUN_NOW_TIMEOUT_MS); calls entered on this thread
    // since the pool last ran the isolate's posted tasks, and when it did (DRAIN_MS).
    poolTasks: 0,
    // Calls waiting for that work to finish, to enter on this thread.
    poolIdle: [],
    ranNow: false,
    drainedAt: 0,
    randomDraws: 0,
    ended: new Set(),
    reports: { since: Date.now(), sent: 0, held: 0 },
  } as unknown as Entry;
  try {
    const context = await isolate.createContext();
    // What the isolate posts and logs, also handed over in a batch at the end of an entry here.
    entry.post = bridge.poster(entry);
    entry.log = bridge.logger(entry);
    entry.startFlags = new Int32Array(new SharedArrayBuffer(4 * START_SLOTS));
    entry.freeStartSlots = Array.from({ length: START_SLOTS }, (_, slot) => START_SLOTS - 1 - slot);
    await context.evalClosure(
      'globalThis.__platformBridge = { post: $0, log: $1, randomBytes: $2, subtle: $3, begin: $4, flags: $5 };',
      [
        new ivm.Callback(entry.post, { ignored: true }),
        new ivm.Callback(entry.log, { ignored: true }),
        new ivm.Callback(
          (n: unknown) => {
            // Random bytes cannot be drawn again alike: a call that drew any continues on the pool.
            entry.randomDraws++;
            return randomBytes(Math.min(Number(n) || 0, 65536)).toString('base64');
          },
          { sync: true },
        ),
        new ivm.Callback(bridge.subtle, { sync: true }),
        // Asynchronous (a synchronous one cost ~50 us a call): the call's first moments are
        // charged to the leftover budget until this lands. Should that budget dispose the isolate
        // meanwhile, the call reruns fresh, which is safe: its capability requests come after this.
        new ivm.Callback(bridge.beginner(entry), { ignored: true }),
        // Copied, a SharedArrayBuffer stays shared: the start flags (see START_SLOTS).
        new ivm.ExternalCopy(entry.startFlags.buffer).copyInto({ release: true }),
      ],
    );
    const prelude: CompiledScript = await isolate.compileScript(settings.preludeText, {
      filename: PRELUDE_FILENAME,
      ...(preludeState.cache ? { cachedData: preludeState.cache } : { produceCachedData: true }),
    });
    if (prelude.cachedDataRejected) {
      preludeState.cache = undefined;
      preludeState.warm = false;
    } else if (!preludeState.cache && prelude.cachedData) preludeState.cache = prelude.cachedData;
    // The prelude's last expression takes `__platformDeliver` off the global: its value is the reference.
    entry.deliver = await prelude.run(context, { timeout: 5000, reference: true });
    entry.context = context;
    return entry;
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    throw error;
  }
}

// The next spare, unless one is ready or on its way; a failure only means no spare.
export function prepareSpare() {
  if (spare !== undefined) return;
  const made = preparedEntry();
  spare = made;
  made.catch(() => {
    if (spare === made) spare = undefined;
  });
}

export async function createEntry(versionId: string) {
  const version = versions.get(versionId);
  if (version === undefined) throw new Error(`runner has no code for version ${versionId}`);
  const taken = spare;
  spare = undefined;
  let entry = taken === undefined ? undefined : await taken.catch(() => undefined);
  if (entry === undefined || entry.isolate.isDisposed) entry = await preparedEntry();
  entry.versionId = versionId;
  entry.lastUsed = Date.now();
  entry.reports.since = Date.now();
  const { isolate } = entry;
  const context = entry.context!;
  entry.context = undefined;
  try {
    // A version's first isolate makes no code cache when it compiles: the one made after its first
    // call (warmCaches) holds more, and this one would cost ~10% more compile on the way to that
    // call. A later isolate makes one if that never happened (the first call failed).
    const script: CompiledScript = await isolate.compileScript(version.script, {
      filename: bundleFilename(versionId),
      ...(version.cachedData
        ? { cachedData: version.cachedData }
        : version.compiled
          ? { produceCachedData: true }
          : {}),
    });
    version.compiled = true;
    // A cache V8 refuses (another V8 or flags) is dropped, and made again after the next call.
    if (script.cachedDataRejected) Object.assign(version, { cachedData: undefined, cacheWarm: false });
    else if (!version.cachedData && script.cachedData) version.cachedData = script.cachedData;
    // Set while the bundle's top level runs (where defineIntegration is called), then taken off.
    const checked = version.checked && settings.definitionCheckedGlobal !== undefined;
    if (checked) await context.global.set(settings.definitionCheckedGlobal!, true);
    // The script's last expression takes `__platformRun` off the global (toIsolateScript).
    entry.run = await script.run(context, { timeout: 5000, reference: true });
    // A call entered on this thread, in one entry: first `__platformDeliver` says which call comes
    // and its start flag (a bundle may wrap the run function, and drop arguments), then the run.
    // Both are held in the closure, out of partner code's reach.
    entry.enter = await context.evalClosure(
      'return (callId, request, deadline, slot) => { $0(0, callId, slot); $1(callId, request, deadline); };',
      [entry.deliver.derefInto(), entry.run.derefInto()],
      { result: { reference: true } },
    );
    if (checked) await context.global.delete(settings.definitionCheckedGlobal!);
    entry.idleCpuStart = cpuTimeOf(entry);
    return entry;
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    throw error;
  } finally {
    prepareSpare();
  }
}

// V8's code cache made at compile time holds only the top level: every function that runs later
// is compiled again in each new isolate. Compiled again in an isolate that has run a call, the same
// source comes from V8's compilation cache with those functions compiled, and the cache made then
// holds them too (cold starts about halve). Done once per runner for the prelude and per version.
export function entryFor(versionId: string) {
  let entry = entries.get(versionId);
  if (entry === undefined) {
    entry = createEntry(versionId);
    entries.set(versionId, entry);
    entry.then(
      (created) => {
        if (entries.get(versionId) === entry) ready.set(versionId, created);
        evictOverLimit();
      },
      () => entries.delete(versionId),
    );
  }
  return entry;
}

// A call's timers go with it: an ended call's timer would only be dropped when it fired.
export function clearTimers(call: Call) {
  for (const timer of call.timers) clearTimeout(timer);
  call.entry.pending -= call.timers.size;
  call.timers.clear();
}

export function dispose(versionId: string, entry: Entry, reason: DisposeReason) {
  if (entry.disposed) return;
  entry.disposed = true;
  entry.reason = reason;
  for (const call of calls.values()) {
    if (call.entry !== entry) continue;
    clearTimers(call);
    // A call entered on this thread waits for its 'done' post, which will not come now.
    call.fail?.(new Error('the isolate was disposed'));
  }
  entries.delete(versionId);
  if (ready.get(versionId) === entry) ready.delete(versionId);
  if (!entry.isolate.isDisposed) entry.isolate.dispose();
  wakeWaiting(entry);
}

// Isolates are bounded: past `maxIsolates` the least recently used idle one goes, and any idle for
// `idleMs`. Its code goes too (the host sends it again with the next call), so a runner's memory
// follows the versions in use, not every version it ever ran.
export function evict(versionId: string, entry: Entry) {
  dispose(versionId, entry, 'evicted');
  versions.delete(versionId);
  send({ type: 'evicted', versionId });
}

// Whether calls wait to enter the isolate (see runCall): it is not evicted under them.
export const awaited = (entry: Entry): boolean => entry.poolIdle.length > 0;

// The calls waiting to enter the isolate go on: it is idle, or gone (then they find its successor).
export function wakeWaiting(entry: Entry) {
  const waiting = entry.poolIdle;
  entry.poolIdle = [];
  for (const resolve of waiting) resolve();
}

// Whether a call uses the isolate; with `live`, only calls the host still waits for (not abandoned).
// A call whose result has come (`done`: posted by an entry on this thread) uses it no more.
export function inUse(entry: Entry, live = false) {
  for (const call of calls.values()) {
    if (call.entry === entry && !call.done && !(live && call.abandoned)) return true;
  }
  return false;
}

export function evictOverLimit() {
  while (ready.size > settings.maxIsolates) {
    let oldest: [string, Entry] | undefined;
    for (const [versionId, entry] of ready) {
      if (!inUse(entry) && !awaited(entry) && (oldest === undefined || entry.lastUsed < oldest[1].lastUsed)) {
        oldest = [versionId, entry];
      }
    }
    if (oldest === undefined) return; // every isolate is busy: the limit waits for one to finish
    evict(oldest[0], oldest[1]);
  }
}

export function evictIdle() {
  const now = Date.now();
  for (const [versionId, entry] of ready) {
    if (!inUse(entry) && !awaited(entry) && now - entry.lastUsed >= settings.idleMs) evict(versionId, entry);
  }
}

// Work sent to the isolate's pool thread: until it settles, no call enters on this thread.
export function poolWork(entry: Entry, task: Promise<any>) {
  entry.poolTasks++;
  const settled = () => {
    if (--entry.poolTasks === 0) wakeWaiting(entry);
  };
  task.then(settled, settled);
  return task;
}

// The tasks V8 posted to an idle isolate that took calls on this thread, run on the pool.
export function drainIfDue(entry: Entry, now: number) {
  if (!entry.ranNow || now - entry.drainedAt < DRAIN_MS) return;
  if (entry.disposed || entry.poolTasks > 0 || inUse(entry)) return;
  entry.ranNow = false;
  entry.drainedAt = now;
  poolWork(entry, entry.deliver.apply(undefined, [-1])).catch(() => {});
}
