// Owns the bridge an isolate talks through: what it posts (capability requests, timers, results of
// entries on this thread), its log lines and start marks, and crypto.subtle's hashing. Nothing that
// comes out of an isolate is trusted: a request is served only for a call running in that isolate.
import { createHash, createHmac } from 'node:crypto';
import { MAX_PENDING, ResultTooLargeError } from './_callLimits.js';
import { dispose, poolWork } from './_isolatePool.js';
import {
  flushLogs,
  hostCall,
  LOG_BATCH_BYTES,
  LOG_BATCH_LINES,
  MAX_LOG_CHARS,
  MAX_LOG_LINES,
  send,
} from './_outbox.js';
import { markStarted } from './_startFlags.js';
import type { Call, Entry } from './_state.js';
import { calls } from './_state.js';
import { continueNow, continuesHere, diverge, TRANSCRIPT_BYTES, transcribe } from './_threadSlice.js';
import { CROSSING_CHARS, droppedLogLine, LOG_LINE_CHARS, overLimit, requestRefusal } from './limits.js';

// Security reports per isolate per minute; past that one line says how many were held back.
export const REPORTS_PER_MINUTE = 10;
export const REFUSED = JSON.stringify({
  ok: false,
  error: { name: 'Error', message: 'refused: this isolate is not running that call' },
});

// Whose a call id is, seen from one isolate: a call it runs now, one of its calls that has ended
// (or was abandoned), or anything else (another isolate's call, a guess): `foreign`.
export function ownership(entry: Entry, callId: string) {
  const call = calls.get(callId);
  if (call !== undefined && call.entry === entry) return call.abandoned ? 'ended' : 'live';
  return entry.ended.has(callId) ? 'ended' : 'foreign';
}

// A request under a call id this isolate does not run: reported (bounded per isolate), never served.
export function reportForeign(entry: Entry, what: string) {
  const now = Date.now();
  if (now - entry.reports.since >= 60_000) {
    if (entry.reports.held > 0) {
      send({
        type: 'security',
        kind: 'capability_borrowing',
        versionId: entry.versionId,
        message: `${entry.reports.held} more requests under call ids this isolate does not run were refused`,
      });
    }
    entry.reports = { since: now, sent: 0, held: 0 };
  }
  if (entry.reports.sent >= REPORTS_PER_MINUTE) {
    entry.reports.held++;
    return;
  }
  entry.reports.sent++;
  send({
    type: 'security',
    kind: 'capability_borrowing',
    versionId: entry.versionId,
    message: `refused a ${what} request under a call id this isolate is not running`,
  });
}

// What the isolate posts: no Node object or reference ever enters it; answers go back through
// the isolate's own `__platformDeliver`, called from here, and only while the call still runs.
export function poster(entry: Entry) {
  // Its result tells nothing; that it settled says the isolate has finished the continuation.
  // `call`: the live call a capability answer is for (it may continue on this thread).
  const deliver = (id: unknown, value: unknown, call?: Call): void => {
    if (entry.disposed || entry.deliver === undefined) return;
    if (call !== undefined && continuesHere(entry, call)) {
      continueNow(entry, call, id, value);
      return;
    }
    try {
      // A number and a string or undefined: primitives cross as they are, no copy needed.
      poolWork(
        entry,
        entry.deliver.apply(undefined, [
          typeof id === 'number' && id > 0 ? id : -1,
          typeof value === 'string' ? value : undefined,
        ]),
      );
    } catch {
      // The isolate went meanwhile: its call fails through its own apply.
    }
  };
  return (kind: unknown, id: unknown, a?: unknown, b?: unknown, c?: unknown, d?: unknown): void => {
    if (kind === 'done') {
      // The result of a call entered on this thread (runNow); `c` set: its run rejected.
      const callId = String(a);
      const owner = ownership(entry, callId);
      if (owner === 'foreign') reportForeign(entry, 'result');
      const call = owner === 'live' ? calls.get(callId) : undefined;
      if (call?.settle === undefined) return;
      // Its isolate runs nothing of it any more (see inUse), though it is released a moment later.
      call.done = true;
      if (c === true) call.fail!(new Error(String(b)));
      // (A result that comes whole is measured where every result goes on: runCall.)
      else if (c === 'size') call.fail!(new ResultTooLargeError(Number(b)));
      else call.settle!(typeof b === 'string' ? b : undefined);
    } else if (kind === 'cap') {
      const callId = String(a);
      const owner = ownership(entry, callId);
      const size = String(c).length + (d === undefined ? 0 : String(d).length);
      if (owner === 'foreign') {
        reportForeign(entry, `capability (${String(b).slice(0, 40)})`);
        deliver(id, REFUSED);
      } else if (owner === 'live' && size > CROSSING_CHARS) {
        // Never sent on: the handler gets the error the prelude gives (it checks first).
        if (!entry.disposed) deliver(id, requestRefusal(String(b).slice(0, 40), size, JSON.stringify));
      } else if (owner === 'live' && !entry.disposed && admit(entry)) {
        // A disposed isolate's requests (one queued before a rerun diverged, say) are never served.
        const call = calls.get(callId)!;
        const method = String(b);
        const args = String(c);
        if (call.replay !== undefined && call.replay.length > 0) {
          // A rerun (see TRANSCRIPT_ENTRIES): answered from the first run's transcript, in order.
          entry.pending--;
          const next = call.replay.shift()!;
          if (next.method === method && next.args === args) deliver(id, next.reply);
          else if (next.method === method) diverge(entry, `asked for ${method} with other arguments`);
          else
            diverge(entry, `asked for ${method.slice(0, 40)} where the first run asked for ${next.method}`);
          return;
        }
        // Recorded in the order asked, answered below (see TRANSCRIPT_ENTRIES).
        const record = transcribe(call, method, args);
        hostCall(entry, callId, method, args, d).then((reply) => {
          entry.pending--;
          if (ownership(entry, callId) !== 'live') return;
          const live = calls.get(callId)!;
          if (record !== undefined && live.transcript !== undefined) {
            record.reply = reply;
            live.transcriptBytes += reply.length;
            if (live.transcriptBytes > TRANSCRIPT_BYTES) live.transcript = undefined;
          }
          deliver(id, reply, live);
        });
      }
    } else if (kind === 'sleep') {
      // A timer runs only for the call that set it, while that call runs; a timer set outside
      // any call (at load) never fires.
      if (b === undefined) return;
      const callId = String(b);
      const owner = ownership(entry, callId);
      if (owner === 'foreign') reportForeign(entry, 'timer');
      if (owner !== 'live' || !admit(entry)) return;
      // A timer's turn among the call's answers is not recorded: the call continues on the pool.
      calls.get(callId)!.transcript = undefined;
      // Cleared with its call (release), so nothing of an ended call stays scheduled here.
      const timers = calls.get(callId)!.timers;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          entry.pending--;
          if (ownership(entry, callId) === 'live') deliver(id, undefined);
        },
        Math.min(Number(a) || 0, 2 ** 31 - 1),
      );
      timers.add(timer);
    }
  };
}

// One more waiting request for the isolate, unless it already has MAX_PENDING: then it is disposed.
export function admit(entry: Entry) {
  if (entry.pending >= MAX_PENDING) {
    dispose(entry.versionId, entry, 'requests');
    return false;
  }
  entry.pending++;
  return true;
}

export function logger(entry: Entry) {
  return (callId: unknown, text: unknown): void => {
    const owner = ownership(entry, String(callId));
    if (owner === 'live') {
      const call = calls.get(String(callId))!;
      // A rerun's lines up to the point the first run reached were sent already.
      if (call.replayLogs > 0) {
        call.replayLogs--;
        return;
      }
      if (call.logLines++ >= MAX_LOG_LINES) return;
      let line = String(text);
      if (line.length > LOG_LINE_CHARS) line = droppedLogLine(line.length, JSON.stringify);
      if (call.logChars + line.length > MAX_LOG_CHARS) return;
      call.logChars += line.length;
      if (call.logs === undefined) call.logs = [];
      call.logs.push(line);
      call.logBytes += line.length;
      if (call.logs.length >= LOG_BATCH_LINES || call.logBytes >= LOG_BATCH_BYTES)
        flushLogs(String(callId), call);
    } else if (owner === 'foreign') reportForeign(entry, 'log');
  };
}

// The prelude says a call's code starts: from here its CPU is the call's, no longer leftover work.
export function beginner(entry: Entry) {
  return (callId: unknown): void => {
    const call = calls.get(String(callId));
    if (call === undefined || call.entry !== entry || call.abandoned || call.cpuStart !== undefined) return;
    markStarted(call);
  };
}
// crypto.subtle's digests and HMACs (prelude/subtle.ts): base64 text in and out, node:crypto here.
export const SUBTLE_HASHES: Record<string, string | undefined> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};
export function subtle(op: unknown, hash: unknown, key: unknown, data: unknown): string {
  const algorithm = SUBTLE_HASHES[String(hash)];
  if (algorithm === undefined) throw new Error(`unsupported hash ${String(hash)}`);
  const text = String(data);
  // Hashed on this thread, which every isolate of the runner shares.
  if (text.length > CROSSING_CHARS)
    throw new Error(overLimit('the data (base64)', text.length, CROSSING_CHARS));
  const bytes = Buffer.from(text, 'base64');
  if (op === 'digest') return createHash(algorithm).update(bytes).digest('base64');
  if (op === 'hmac') {
    return createHmac(algorithm, Buffer.from(String(key), 'base64'))
      .update(bytes)
      .digest('base64');
  }
  throw new Error(`unknown crypto operation ${String(op)}`);
}
