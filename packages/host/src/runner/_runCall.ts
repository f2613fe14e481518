// Owns one call from the host: entering its isolate (on this thread or the pool), its result or
// failure, a rerun, and its end (release, abandon).

import { MAX_PENDING, ResultTooLargeError } from './_callLimits.js';
import { cacheIsCold, warmCachesOnce } from './_codeCache.js';
import { clearTimers, dispose, entryFor, inUse, poolWork } from './_isolatePool.js';
import { flushLogs, send, takeLogs } from './_outbox.js';
import { hasStarted, takeStartSlot } from './_startFlags.js';
import type { Call, Entry, Replay } from './_state.js';
import { calls, counters, cpuTimeOf, entries, pooledVersions, settings, versions } from './_state.js';
import { diverge, runNow } from './_threadSlice.js';
import { watchCalls } from './_watchdog.js';
import { CROSSING_CHARS } from './limits.js';

// Ended call ids each isolate remembers, to tell a late request of its own from a borrowed id.
export const ENDED_CALLS_KEPT = 256;

export function failure(entry: Entry | undefined, error: any) {
  if (error instanceof ResultTooLargeError) return { kind: 'size', message: error.message };
  if (entry?.reason === 'requests') {
    return {
      kind: 'requests',
      message: `the handler kept more than ${MAX_PENDING} timers and capability calls waiting; its isolate was disposed`,
    };
  }
  if (entry?.reason === 'leftover') {
    return {
      kind: 'cpu',
      message:
        'work a handler left running after its call ended used more CPU than allowed; the isolate was disposed',
    };
  }
  if (entry?.reason === 'diverged') {
    return {
      kind: 'disposed',
      message: `the handler was stopped on the runner's thread after an await and run again from the start, answered from its first run, but the rerun ${entry.diverged}: a handler whose capability calls depend on the time or on Math.random cannot be run again, so the call failed (its version no longer continues on that thread)`,
    };
  }
  if (entry?.reason === 'cpu') {
    return {
      kind: 'cpu',
      message: 'the handler used more CPU time than its budget; its isolate was disposed',
    };
  }
  if (entry !== undefined && (entry.disposed || entry.isolate.isDisposed)) {
    const memory = /memory limit/i.test(String(error?.message));
    return memory
      ? {
          kind: 'memory',
          message: `the handler went past the isolate's ${settings.memoryLimitMb} MiB memory limit`,
        }
      : { kind: 'disposed', message: 'the isolate was disposed during the call' };
  }
  return { kind: 'error', name: String(error?.name ?? 'Error'), message: String(error?.message ?? error) };
}

// `onPool`: a call stopped on this thread runs again on the pool. `replay`: the transcript and
// the count of log lines of a first run stopped after an await (see TRANSCRIPT_ENTRIES).
export async function runCall(
  message: any,
  retried = false,
  onPool = false,
  replay: Replay | undefined = undefined,
) {
  const { callId, versionId } = message;
  if (message.script !== undefined && !versions.has(versionId)) {
    versions.set(versionId, {
      script: message.script,
      // A version loaded only to read its definition (install, the gate) has it checked.
      checked: message.ephemeral !== true,
      cachedData: undefined,
      cacheWarm: false,
    });
  }
  if (!versions.has(versionId) && !entries.has(versionId)) {
    send({
      type: 'result',
      callId,
      ok: false,
      error: { kind: 'missing_code', message: `runner has no code for version ${versionId}` },
    });
    return;
  }
  let entry: Entry | undefined;
  let call: Call | undefined;
  let retry = false;
  let stopped = false;
  try {
    // On this thread only when nothing else of the isolate runs or waits on the pool. Work the pool
    // is finishing for it (no call waiting on a request) is waited for here: the isolate runs one
    // thing at a time either way, and entering it from both sides by turns costs more than either.
    let now: boolean;
    for (;;) {
      entry = await entryFor(versionId);
      const open = !onPool && !inUse(entry) && !pooledVersions.has(versionId);
      now = open && entry.poolTasks === 0;
      if (!open || now) break;
      const waiting = entry;
      await new Promise<void>((resolve) => waiting.poolIdle.push(resolve));
    }
    call = {
      entry,
      versionId,
      timers: new Set(),
      logLines: 0,
      logChars: 0,
      // Lines not sent yet (see LOG_BATCH_LINES) and their length.
      logs: undefined,
      logBytes: 0,
      cpuStart: undefined,
      cpuLimitNs: BigInt(Math.round(message.cpuLimitMs * 1e6)),
      slot: takeStartSlot(entry),
      // Set for a call entered on this thread: its result comes as a 'done' post.
      settle: undefined,
      fail: undefined,
      // What the call asked for and got, in order (see TRANSCRIPT_ENTRIES); undefined: not kept.
      // Only a call entered on this thread continues here; a rerun never does.
      transcript: now && replay === undefined ? [] : undefined,
      transcriptBytes: 0,
      randomDraws: entry.randomDraws,
      replay: replay?.transcript.slice(),
      replayLogs: replay?.logLines ?? 0,
      // Set when a continuation on this thread is stopped: what its rerun replays.
      rerun: undefined,
    };
    if (replay !== undefined) {
      call.logLines = replay.logLines;
      counters.reruns.replayed++;
    }
    calls.set(callId, call);
    watchCalls();
    const value = await (now ? runNow(call, callId, message) : runPooled(call, callId, message));
    if (call.replay !== undefined && call.replay.length > 0) {
      diverge(entry, `ended without asking for ${call.replay[0]!.method}, which the first run asked for`);
      throw new Error('the rerun diverged');
    }
    // The prelude answers JSON text; anything else (a Reference) never goes to the host.
    if (value !== undefined && typeof value !== 'string')
      throw new Error('the isolate answered no JSON text');
    if (value !== undefined && value.length > CROSSING_CHARS) throw new ResultTooLargeError(value.length);
    // "\0<used>\0<result>": preloaded storage values the call used after its last request.
    let used: string | undefined;
    let result = value;
    if (value?.charCodeAt(0) === 0) {
      const end = value.indexOf('\u0000', 1);
      if (end < 0) throw new Error('the isolate answered no JSON text');
      used = value.slice(1, end);
      result = value.slice(end + 1);
    }
    send({
      type: 'result',
      callId,
      ok: true,
      value: result,
      logs: takeLogs(call),
      ...(used === undefined ? {} : { used }),
    });
    if (!message.ephemeral && cacheIsCold(versionId)) warmCachesOnce(versionId, entry).catch(() => {});
  } catch (error) {
    if (entry?.isolate.isDisposed) dispose(versionId, entry, entry.reason ?? 'disposed');
    // Queued behind work an earlier call left running, this call's code never started: it runs
    // again in a fresh isolate, so the next call after such abuse answers normally.
    retry = !retried && entry?.reason === 'leftover' && (call === undefined || !hasStarted(call));
    // Stopped while it held this thread (RUN_NOW_TIMEOUT_MS): it runs again, from the start, on the pool.
    stopped = entry?.reason === 'stopped';
    retry ||= stopped;
    if (!retry)
      send({ type: 'result', callId, ok: false, error: failure(entry, error), logs: takeLogs(call) });
    // Lines a stopped first run logged before its last request went out (the rerun drops them again).
    else if (call !== undefined) flushLogs(callId, call);
  } finally {
    release(callId);
    // A version loaded only to read its definition (install, the gate) is not kept.
    if (message.ephemeral && !retry) {
      versions.delete(versionId);
      if (entry !== undefined) dispose(versionId, entry, 'ephemeral');
    }
  }
  if (retry) await runCall(message, true, onPool || stopped, stopped ? call?.rerun : undefined);
}

// A call entered on the isolate's own thread, from the pool. Strings and numbers cross as they are.
export function runPooled(call: Call, callId: string, message: any) {
  counters.callsOnPool++;
  return poolWork(
    call.entry,
    call.entry.run.apply(undefined, [callId, message.request, message.deadline, call.slot], {
      result: { promise: true },
    }),
  );
}

// A call ends here when its handler settles.
export function release(callId: string) {
  const call = calls.get(callId);
  if (call === undefined) return;
  calls.delete(callId);
  const { entry } = call;
  // Seen before the idle clock below restarts: a call that ran counts nothing as leftover work.
  hasStarted(call);
  if (call.slot >= 0) entry.freeStartSlots.push(call.slot);
  clearTimers(call);
  entry.ended.add(callId);
  if (entry.ended.size > ENDED_CALLS_KEPT) entry.ended.delete(entry.ended.values().next().value!);
  if (!call.abandoned) {
    entry.lastUsed = Date.now();
    // The last live call of an isolate that still runs abandoned handlers takes it down with it.
    if (inUse(entry) && !inUse(entry, true)) dispose(call.versionId, entry, 'timeout');
  }
  // No call's code runs in the isolate any more: whatever it does from now on is leftover work.
  let running = false;
  for (const other of calls.values()) if (other.entry === entry && hasStarted(other)) running = true;
  if (!running && entry.idleCpuStart === undefined) entry.idleCpuStart = cpuTimeOf(entry);
}

// The host's wall-clock budget ran out: the call has already failed there. Its handler may still
// be running (awaiting forever, or about to loop): the isolate is disposed as soon as no other
// call uses it, and until then the watchdog keeps counting the call's CPU.
export function abandon(callId: string) {
  const call = calls.get(callId);
  if (call === undefined || call.abandoned) return;
  call.abandoned = true;
  clearTimers(call);
  if (!inUse(call.entry, true)) dispose(call.versionId, call.entry, 'timeout');
}

// The CPU watchdog: `timeout` options only bound synchronous runs, so a loop that starts after an
