// Owns entering isolates on this thread (runNow, continueNow) within the slice, the transcript
// that lets a stopped call run again, and sending versions to the pool for good.
import { dispose } from './_isolatePool.js';
import { send } from './_outbox.js';
import { hasStarted } from './_startFlags.js';
import type { Call, Entry, TranscriptRecord } from './_state.js';
import {
  calls,
  counters,
  cpuTimeOf,
  lastStops,
  POOLED_VERSIONS_KEPT,
  pooledVersions,
  settings,
  versions,
} from './_state.js';

// Entering on this thread. A call whose isolate is idle enters it on this thread (applySync) rather
// than through isolated-vm's thread pool: no hop to the isolate's thread and back, which cost ~55 us
// of CPU per call. Partner code then holds this thread, so the entry is bounded: past this wall time
// it is stopped, its isolate disposed and the call run again from the start on the pool (no effect
// of the stopped run has left the isolate: what it posted and logged is held there until an entry
// ends, see the prelude's `held`). A version stopped twice within STOPS_WINDOW_MS goes to the pool
// for good (in this runner): the slice is wall time, and on a loaded machine a descheduled runner
// overruns it now and then, which says nothing of the handler (neither does the CPU clock of a
// stopped entry, nor this process's, which other threads share), while a handler that computes
// past it does so again. So do versions whose entries' CPU (the isolate's thread clock), averaged
// over the latest ten or so, passes RUN_NOW_MEAN_NS (a lone long one, a garbage collection, does
// not). A handler holds this thread for at most RUN_NOW_TIMEOUT_MS two or three times, or about a
// millisecond at a time. What follows a call's first await runs on the pool, where its CPU budget
// is watched, unless it continues here (see TRANSCRIPT_ENTRIES).
//
// Idle means no work of the isolate can be running on the pool, or this thread would wait for it
// (and no watchdog tick could stop it): nothing this runner sent there (`poolWork`) is unfinished
// (isolated-vm settles a task only after the microtasks it queued have run), and nothing partner
// code does can post work that runs later by itself (the prelude makes WebAssembly compile at once
// and FinalizationRegistry call nothing back: those were V8's only tasks that run JavaScript).
// Set by `init` from `threadSliceMs` (the host's default: 10 ms; the mean is a tenth of it). Tests
// of these rules use a longer slice: on a loaded, slow machine a runner is descheduled past 10 ms
// now and then, and the CPU clock of trivial entries reads a few milliseconds.
export const STOPS_WINDOW_MS = 60_000;
// Continuations on this thread. A capability answer is delivered on this thread too (no hop to the
// isolate's thread and back, ~60 us each way of a bridged call), with the same slice as a call's
// first entry, when the call runs alone in its idle isolate with nothing else waiting, has set no
// timer and drawn no random bytes, and keeps a transcript: each request it made and the answer it
// got, in order. Unlike a first entry, code after an await cannot simply run again: its requests
// have been served (a write done, a fetch sent). So a continuation stopped at the slice runs the
// call again from the start on the pool, in a fresh isolate, answering the requests the first run
// made from the transcript (nothing is served twice) and dropping the log lines already sent; from
// the point where the first run was stopped it runs live. A rerun that asks for anything else than
// the first run did, in the same order (its requests depended on the time or on Math.random), or
// ends without asking for all of it, fails the call: its version goes to the pool, where this
// cannot happen again. A call's transcript is dropped (and its continuations go to the pool) past
// TRANSCRIPT_ENTRIES requests or TRANSCRIPT_BYTES of answers.
export const TRANSCRIPT_ENTRIES = 256;
export const TRANSCRIPT_BYTES = 256 * 1024;
// A call entered on this thread (see RUN_NOW_TIMEOUT_MS). What it does up to its first await runs
// now; its result comes through a 'done' post once its handler settles (here or on the pool).
export function runNow(call: Call, callId: string, message: any) {
  const { entry, versionId } = call;
  const settled = new Promise((resolve, reject) => {
    call.settle = resolve;
    call.fail = reject;
  });
  // Should the entry below throw, nothing awaits this promise when a later dispose rejects it.
  settled.catch(() => {});
  counters.callsOnThread++;
  const before = cpuTimeOf(entry);
  try {
    entry.enter.applySync(undefined, [callId, message.request, message.deadline, call.slot], {
      timeout: settings.RUN_NOW_TIMEOUT_MS,
    });
    // What the entry posted and logged, in order: requests, log lines and, if the handler settled
    // within it, its result ('done'). Read like the isolate's callbacks, and as untrusted.
    const held = entry.deliver.applySync(undefined, [-2], {
      timeout: settings.RUN_NOW_TIMEOUT_MS,
      result: { copy: true },
    });
    handOver(entry, held);
  } catch (error: any) {
    if (!entry.isolate.isDisposed && /timed out/i.test(String(error?.message))) {
      if (call.slot >= 0 && Atomics.load(entry.startFlags, call.slot) === 0) {
        // The call's code never started: other code held the isolate (a bundle's own, on the way
        // into the call). Reported and handled as leftover work: the call runs again in a fresh isolate.
        send({ type: 'leftover', versionId, cpuMs: Number((cpuTimeOf(entry) - before) / 1_000_000n) });
        dispose(versionId, entry, 'leftover');
      } else {
        afterStop(versionId);
        dispose(versionId, entry, 'stopped');
      }
    }
    throw error;
  }
  // The whole entry is the call's CPU (no watchdog tick can fall inside it).
  if (call.cpuStart === undefined) {
    call.cpuStart = before;
    entry.idleCpuStart = undefined;
  }
  learn(versionId, cpuTimeOf(entry) - before, 'entryNs');
  entry.ranNow = true;
  return settled;
}

// What an entry on this thread posted and logged, in order: requests, log lines and, if the handler
// settled within it, its result ('done'). Read like the isolate's callbacks, and as untrusted.
export function handOver(entry: Entry, held: unknown) {
  if (!Array.isArray(held)) return;
  for (let at = 0; at + 6 < held.length; at += 7) {
    if (held[at] === 1) entry.log(held[at + 1], held[at + 2]);
    else entry.post(held[at + 1], held[at + 2], held[at + 3], held[at + 4], held[at + 5], held[at + 6]);
  }
}

// An entry's CPU on this thread: a version whose first entries, or whose continuations, average
// past RUN_NOW_MEAN_NS goes to the pool (`kind`: 'entryNs' or 'continuationNs', averaged apart so
// that short continuations do not hide long entries).
export function learn(versionId: string, ns: bigint, kind: 'entryNs' | 'continuationNs') {
  const version = versions.get(versionId);
  if (version === undefined) return;
  version[kind] = (version[kind] ?? 0) * 0.9 + Number(ns) * 0.1;
  if (version[kind] > settings.RUN_NOW_MEAN_NS && !pooledVersions.has(versionId))
    poolVersion(versionId, 'mean');
}

// The first request of a call's transcript, or the next: a slot its answer fills (undefined: none kept).
export function transcribe(call: Call, method: string, args: string) {
  if (call.transcript === undefined) return undefined;
  if (call.transcript.length >= TRANSCRIPT_ENTRIES) {
    call.transcript = undefined;
    return undefined;
  }
  const record: TranscriptRecord = { method, args, reply: undefined };
  call.transcript.push(record);
  return record;
}

// Whether a capability answer for `call` is delivered on this thread (see TRANSCRIPT_ENTRIES).
export function continuesHere(entry: Entry, call: Call) {
  if (call.settle === undefined || call.done || call.abandoned || call.transcript === undefined) return false;
  // (A call that set a timer keeps no transcript.)
  if (entry.poolTasks > 0 || entry.pending > 0 || entry.randomDraws !== call.randomDraws) return false;
  if (pooledVersions.has(entry.versionId) || !hasStarted(call)) return false;
  // Room left in the call's CPU budget for a whole slice: a stop is then never the budget's.
  if (call.cpuLimitNs - (cpuTimeOf(entry) - call.cpuStart!) < 2n * settings.RUN_NOW_TIMEOUT_NS) return false;
  for (const other of calls.values())
    if (other !== call && other.entry === entry && !other.done) return false;
  return true;
}

// A capability answer delivered on this thread; the code that continues runs within the slice.
export function continueNow(entry: Entry, call: Call, id: unknown, value: unknown) {
  const { versionId } = entry;
  counters.continuationsOnThread++;
  const before = cpuTimeOf(entry);
  try {
    // The request id is the isolate's word, like everything from it: a positive number or nothing.
    const request = typeof id === 'number' && id > 0 ? id : -1;
    entry.deliver.applySync(undefined, [-3, typeof value === 'string' ? value : undefined, request], {
      timeout: settings.RUN_NOW_TIMEOUT_MS,
    });
    handOver(
      entry,
      entry.deliver.applySync(undefined, [-2], {
        timeout: settings.RUN_NOW_TIMEOUT_MS,
        result: { copy: true },
      }),
    );
  } catch (error: any) {
    if (!entry.isolate.isDisposed && /timed out/i.test(String(error?.message))) {
      // Nothing of the stopped continuation left the isolate: the call runs again, replaying.
      afterStop(versionId);
      call.rerun = { transcript: call.transcript!, logLines: call.logLines };
      dispose(versionId, entry, 'stopped');
    } else {
      call.fail!(error as Error);
      dispose(versionId, entry, 'disposed');
    }
    return;
  }
  learn(versionId, cpuTimeOf(entry) - before, 'continuationNs');
  entry.ranNow = true;
}

// A rerun that does not repeat its first run fails; its version continues on the pool from now on.
export function diverge(entry: Entry, what: string) {
  counters.reruns.diverged++;
  if (!pooledVersions.has(entry.versionId)) poolVersion(entry.versionId, 'diverged');
  entry.diverged = what;
  dispose(entry.versionId, entry, 'diverged');
}

// An entry stopped at the slice: its version goes to the pool at the second within STOPS_WINDOW_MS.
export function afterStop(versionId: string) {
  const now = Date.now();
  const last = lastStops.get(versionId);
  if (last !== undefined && now - last < STOPS_WINDOW_MS) {
    lastStops.delete(versionId);
    poolVersion(versionId, 'stoppedTwice');
    return;
  }
  counters.stopsForgiven++;
  remember(lastStops, versionId, now);
}

// `reason`: a key of `pooledFor`.
export function poolVersion(versionId: string, reason: keyof typeof counters.pooledFor) {
  counters.pooledFor[reason]++;
  remember(pooledVersions, versionId, reason);
}

// Sets a key as the newest of a map of versions; the oldest go past POOLED_VERSIONS_KEPT.
export function remember(recent: Map<string, any>, versionId: string, value: unknown) {
  recent.delete(versionId);
  recent.set(versionId, value);
  if (recent.size > POOLED_VERSIONS_KEPT) recent.delete(recent.keys().next().value!);
}
