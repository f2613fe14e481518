// A runner process: runs partner code in V8 isolates (isolated-vm) for the host process, which
// forks it with `--no-node-snapshot`, the permission model (file reads limited to this folder and
// isolated-vm) and an empty environment. Messages over the IPC channel, JSON only:
//   host -> runner: init { prelude, definitionCheckedGlobal, memoryLimitMb, maxIsolates, idleMs,
//                   leftoverCpuMs, threadSliceMs }, call { callId, versionId, script?, request, cpuLimitMs,
//                   ephemeral? }, cap-result { capId, reply }, abandon { callId }, stats { statsId }
//   runner -> host: ready, cap { callId, versionId, capId, method, args, logs?, used? }, log { callId, entries },
//                   result { callId, ok, value | error: { kind, message }, logs?, used? }, evicted { versionId },
//                   stats { statsId, isolates, versions, callsOnThread, callsOnPool, pooledVersions,
//                           pooledFor { stoppedTwice, mean, diverged }, stopsForgiven,
//                           continuationsOnThread, reruns { replayed, diverged }, messagesIn, deliveriesIn },
//                   security { kind, versionId, message },
//                   leftover { versionId, cpuMs }
// `used` (JSON text): the storage values the host read ahead for a call (`preload` in its request)
// that the guest used since its previous message; the prelude prefixes a result with "\0used\0".
// A call without `script` for a version this runner has evicted answers `missing_code`; the host
// sends it again with the script. `logs`/`entries`: a call's console lines (JSON text) not sent yet,
// handled by the host before the message they ride on. A call's start is not a message: the
// prelude marks it in shared memory (start flags, below). A call enters its isolate on this
// thread when it can (see RUN_NOW_TIMEOUT_MS), else through isolated-vm's thread pool; so does the
// code after a capability answer, under a transcript that lets a stopped call run again
// (TRANSCRIPT_ENTRIES).
//
// Nothing that comes out of an isolate is trusted. The guest names the call a request belongs to
// (several calls of one version share its isolate), so a request is answered only when that call
// is running in the very isolate that asks; call ids are random. Any other id is refused and
// reported as a security event; a request of a call of this isolate that has ended is dropped
// unanswered, so work a handler left behind stalls instead of running on.
// Plain JavaScript so the forked process needs no TypeScript loader.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { CROSSING_CHARS, droppedLogLine, LOG_LINE_CHARS, overLimit, requestRefusal } from './limits.js';

const ivm = createRequire(import.meta.url)(process.argv[2]);

// The CPU watchdog's tick while calls run (their budgets are tens of milliseconds), and while none
// does: then it only watches work handlers left behind, whose budget is 100 ms by default, and a
// runner at rest wakes 20 times a second instead of 200 (an idle runner used ~5% of a core).
const WATCHDOG_INTERVAL_MS = 5;
const IDLE_WATCHDOG_INTERVAL_MS = 50;
// Compiling a version again for its code cache runs in its isolate, outside any call: allowed this
// much CPU on top of the leftover budget, once per version.
const WARM_ALLOWANCE_NS = 250_000_000n;
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
let RUN_NOW_TIMEOUT_MS;
let RUN_NOW_TIMEOUT_NS;
let RUN_NOW_MEAN_NS;
const STOPS_WINDOW_MS = 60_000;
// An isolate that took calls on this thread gets an empty task on the pool at most this often while
// idle: tasks V8 posted meanwhile (garbage collection's, none that runs JavaScript) run only there.
const DRAIN_MS = 50;
// Versions sent to the pool, remembered past eviction; the oldest are forgotten past this many.
const POOLED_VERSIONS_KEPT = 4096;
const pooledVersions = new Map();
// versionId -> when an entry of it was last stopped without being sent to the pool (as many kept).
const lastStops = new Map();
// Why versions went to the pool since this runner started, and stops that left their version on
// this thread (its stats).
const pooledFor = { stoppedTwice: 0, mean: 0, diverged: 0 };
let stopsForgiven = 0;
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
const TRANSCRIPT_ENTRIES = 256;
const TRANSCRIPT_BYTES = 256 * 1024;
let continuationsOnThread = 0;
const reruns = { replayed: 0, diverged: 0 };
// Calls entered each way since this runner started (its stats).
let callsOnThread = 0;
let callsOnPool = 0;
// Messages from the host, and the channel messages that carried them (a batch is one; its stats).
let messagesIn = 0;
let deliveriesIn = 0;
// Ended call ids each isolate remembers, to tell a late request of its own from a borrowed id.
const ENDED_CALLS_KEPT = 256;
// Security reports per isolate per minute; past that one line says how many were held back.
const REPORTS_PER_MINUTE = 10;
// Timers and capability calls an isolate may keep waiting at once; past it the isolate goes (each
// costs this process memory, and a runner serves other integrations too).
const MAX_PENDING = 10_000;
// Log lines one call may send to the host, which budgets them far lower (PLATFORM_LOG_*): this only
// keeps a flood off the IPC channel.
const MAX_LOG_LINES = 10_000;
// ... and their characters (each line at most LOG_LINE_CHARS): the host parses every line it gets
// before its budget drops it.
const MAX_LOG_CHARS = 1024 * 1024;
// A call's log lines wait for its next message to the host (a capability request or its result),
// the next watchdog tick, or this many lines or bytes: one message for them, not one per line.
const LOG_BATCH_LINES = 100;
const LOG_BATCH_BYTES = 64 * 1024;
let preludeText = '';
let preludeCache;
let preludeCacheWarm = false;
// Set by `init` (the host holds the defaults).
let memoryLimitMb;
// The global set to true in an isolate made for a version that runs calls while its bundle's top
// level runs: the host checked that definition when it installed the version, in an isolate loaded
// only to read it (`ephemeral`, where it is not set), so defineIntegration skips checking it again.
let definitionCheckedGlobal;
let maxIsolates;
let idleMs;
let leftoverCpuNs;
const PRELUDE_FILENAME = 'platform:prelude.js';
const bundleFilename = (versionId) => `platform:bundle/${versionId}.js`;
/** versionId -> { script, checked, cachedData, cacheWarm, entryNs?, continuationNs? } (see RUN_NOW_MEAN_NS) */
const versions = new Map();
/** versionId -> Promise<Entry>; an Entry is one isolate with the version loaded. */
const entries = new Map();
/** versionId -> Entry, once created: what eviction looks at. */
const ready = new Map();
/**
 * callId -> { entry, versionId, cpuStart, cpuLimitNs, abandoned? }: what uses each isolate.
 * `cpuStart` is set when the call's code starts in the isolate (the prelude says so); until then
 * the isolate's CPU is charged to its leftover budget.
 */
const calls = new Map();
/** capId -> resolve */
const capReplies = new Map();
let nextCap = 1;

// Messages leave together at the end of the event loop's turn: the results and requests of the
// calls one batch from the host ran cost one write and one wake-up of the host. (Not on
// process.nextTick: flushed that way, two bridged calls took 40% longer, as if a capability request
// sent from an isolated-vm callback waited for the next unrelated event to run the tick queue.)
let outbox = [];
function flushOutbox() {
  const messages = outbox;
  outbox = [];
  if (process.connected) process.send(messages.length === 1 ? messages[0] : { type: 'batch', messages });
}
const send = (message) => {
  if (outbox.length === 0) setImmediate(flushOutbox);
  outbox.push(message);
};

function hostCall(entry, callId, method, args, used) {
  const capId = nextCap++;
  const logs = takeLogs(calls.get(callId));
  return new Promise((resolve) => {
    capReplies.set(capId, resolve);
    send({
      type: 'cap',
      callId,
      versionId: entry.versionId,
      capId,
      method,
      args: String(args),
      logs,
      ...(used === undefined ? {} : { used: String(used) }),
    });
  });
}

// The call's waiting log lines, for the message that goes next (undefined: none, and no field).
function takeLogs(call) {
  const logs = call?.logs;
  if (logs !== undefined) {
    call.logs = undefined;
    call.logBytes = 0;
  }
  return logs;
}

function flushLogs(callId, call) {
  const entries = takeLogs(call);
  if (entries !== undefined) send({ type: 'log', callId, entries });
}

const REFUSED = JSON.stringify({
  ok: false,
  error: { name: 'Error', message: 'refused: this isolate is not running that call' },
});

// Whose a call id is, seen from one isolate: a call it runs now, one of its calls that has ended
// (or was abandoned), or anything else (another isolate's call, a guess): `foreign`.
function ownership(entry, callId) {
  const call = calls.get(callId);
  if (call !== undefined && call.entry === entry) return call.abandoned ? 'ended' : 'live';
  return entry.ended.has(callId) ? 'ended' : 'foreign';
}

// A request under a call id this isolate does not run: reported (bounded per isolate), never served.
function reportForeign(entry, what) {
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
function poster(entry) {
  // Its result tells nothing; that it settled says the isolate has finished the continuation.
  // `call`: the live call a capability answer is for (it may continue on this thread).
  const deliver = (id, value, call) => {
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
  return (kind, id, a, b, c, d) => {
    if (kind === 'done') {
      // The result of a call entered on this thread (runNow); `c` set: its run rejected.
      const callId = String(a);
      const owner = ownership(entry, callId);
      if (owner === 'foreign') reportForeign(entry, 'result');
      const call = owner === 'live' ? calls.get(callId) : undefined;
      if (call?.settle === undefined) return;
      // Its isolate runs nothing of it any more (see inUse), though it is released a moment later.
      call.done = true;
      if (c === true) call.fail(new Error(String(b)));
      // (A result that comes whole is measured where every result goes on: runCall.)
      else if (c === 'size') call.fail(new ResultTooLargeError(Number(b)));
      else call.settle(typeof b === 'string' ? b : undefined);
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
        const call = calls.get(callId);
        const method = String(b);
        const args = String(c);
        if (call.replay !== undefined && call.replay.length > 0) {
          // A rerun (see TRANSCRIPT_ENTRIES): answered from the first run's transcript, in order.
          entry.pending--;
          const next = call.replay.shift();
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
          const live = calls.get(callId);
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
      calls.get(callId).transcript = undefined;
      // Cleared with its call (release), so nothing of an ended call stays scheduled here.
      const timers = calls.get(callId).timers;
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
function admit(entry) {
  if (entry.pending >= MAX_PENDING) {
    dispose(entry.versionId, entry, 'requests');
    return false;
  }
  entry.pending++;
  return true;
}

function logger(entry) {
  return (callId, text) => {
    const owner = ownership(entry, String(callId));
    if (owner === 'live') {
      const call = calls.get(String(callId));
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
function beginner(entry) {
  return (callId) => {
    const call = calls.get(String(callId));
    if (call === undefined || call.entry !== entry || call.abandoned || call.cpuStart !== undefined) return;
    markStarted(call);
  };
}

function markStarted(call) {
  call.cpuStart = cpuTimeOf(call.entry);
  call.entry.idleCpuStart = undefined;
}

// Start flags: shared memory in which the prelude marks a call's slot when its code starts, so a
// call costs no `begin` message (each one woke this thread). The runner sees the mark at the next
// watchdog tick or when the call ends, whichever is first: a call's CPU clock starts at most one
// tick late, and nothing of its CPU is ever counted as leftover work. Slots are per isolate; a call
// that finds none free says it started through `begin`, as before. Like everything from an isolate
// a mark is untrusted, and it can only harm its own isolate: a mark set early starts that call's
// clock early, one never set leaves the call's CPU on the leftover budget (disposed past 100 ms).
const START_SLOTS = 64;

function takeStartSlot(entry) {
  const slot = entry.freeStartSlots.pop() ?? -1;
  if (slot >= 0) Atomics.store(entry.startFlags, slot, 0);
  return slot;
}

// Whether a call's code has started; the first time its mark is seen, its CPU clock starts. A slot
// is free again only once its call's apply has settled, after which no late mark can land in it.
function hasStarted(call) {
  if (call.cpuStart !== undefined) return true;
  if (call.abandoned || call.slot < 0 || Atomics.load(call.entry.startFlags, call.slot) === 0) return false;
  markStarted(call);
  return true;
}

function cpuTimeOf(entry) {
  try {
    return entry.isolate.cpuTime;
  } catch {
    return 0n;
  }
}

// crypto.subtle's digests and HMACs (prelude/subtle.js): base64 text in and out, node:crypto here.
const SUBTLE_HASHES = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
function subtle(op, hash, key, data) {
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

// One isolate with the prelude loaded and no version yet, made ahead while the runner has nothing
// else to do: a version's cold start then only compiles and runs its bundle. Host code only runs
// in it (the prelude); it becomes one version's isolate and is never reused for another. At most
// one per runner, made after the first isolate this runner creates.
let spare;

// A new isolate and context with the bridge and the prelude: no partner code has run in it.
async function preparedEntry() {
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
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
  };
  try {
    const context = await isolate.createContext();
    // What the isolate posts and logs, also handed over in a batch at the end of an entry here.
    entry.post = poster(entry);
    entry.log = logger(entry);
    entry.startFlags = new Int32Array(new SharedArrayBuffer(4 * START_SLOTS));
    entry.freeStartSlots = Array.from({ length: START_SLOTS }, (_, slot) => START_SLOTS - 1 - slot);
    await context.evalClosure(
      'globalThis.__platformBridge = { post: $0, log: $1, randomBytes: $2, subtle: $3, begin: $4, flags: $5 };',
      [
        new ivm.Callback(entry.post, { ignored: true }),
        new ivm.Callback(entry.log, { ignored: true }),
        new ivm.Callback(
          (n) => {
            // Random bytes cannot be drawn again alike: a call that drew any continues on the pool.
            entry.randomDraws++;
            return randomBytes(Math.min(Number(n) || 0, 65536)).toString('base64');
          },
          { sync: true },
        ),
        new ivm.Callback(subtle, { sync: true }),
        // Asynchronous (a synchronous one cost ~50 us a call): the call's first moments are
        // charged to the leftover budget until this lands. Should that budget dispose the isolate
        // meanwhile, the call reruns fresh, which is safe: its capability requests come after this.
        new ivm.Callback(beginner(entry), { ignored: true }),
        // Copied, a SharedArrayBuffer stays shared: the start flags (see START_SLOTS).
        new ivm.ExternalCopy(entry.startFlags.buffer).copyInto({ release: true }),
      ],
    );
    const prelude = await isolate.compileScript(preludeText, {
      filename: PRELUDE_FILENAME,
      ...(preludeCache ? { cachedData: preludeCache } : { produceCachedData: true }),
    });
    if (prelude.cachedDataRejected) {
      preludeCache = undefined;
      preludeCacheWarm = false;
    } else if (!preludeCache && prelude.cachedData) preludeCache = prelude.cachedData;
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
function prepareSpare() {
  if (spare !== undefined) return;
  const made = preparedEntry();
  spare = made;
  made.catch(() => {
    if (spare === made) spare = undefined;
  });
}

async function createEntry(versionId) {
  const version = versions.get(versionId);
  if (version === undefined) throw new Error(`runner has no code for version ${versionId}`);
  const taken = spare;
  spare = undefined;
  let entry = taken === undefined ? undefined : await taken.catch(() => undefined);
  if (entry === undefined || entry.isolate.isDisposed) entry = await preparedEntry();
  entry.versionId = versionId;
  entry.lastUsed = Date.now();
  entry.reports.since = Date.now();
  const { isolate, context } = entry;
  entry.context = undefined;
  try {
    // A version's first isolate makes no code cache when it compiles: the one made after its first
    // call (warmCaches) holds more, and this one would cost ~10% more compile on the way to that
    // call. A later isolate makes one if that never happened (the first call failed).
    const script = await isolate.compileScript(version.script, {
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
    const checked = version.checked && definitionCheckedGlobal !== undefined;
    if (checked) await context.global.set(definitionCheckedGlobal, true);
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
    if (checked) await context.global.delete(definitionCheckedGlobal);
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
const cacheIsCold = (versionId) => !preludeCacheWarm || versions.get(versionId)?.cacheWarm === false;

async function warmCaches(versionId, entry) {
  const cacheAgain = async (source, filename) =>
    (await poolWork(entry, entry.isolate.compileScript(source, { filename, produceCachedData: true })))
      .cachedData;
  if (!preludeCacheWarm) {
    preludeCacheWarm = true;
    preludeCache = (await cacheAgain(preludeText, PRELUDE_FILENAME)) ?? preludeCache;
  }
  const version = versions.get(versionId);
  if (version !== undefined && !version.cacheWarm && !entry.disposed) {
    version.cacheWarm = true;
    version.cachedData = (await cacheAgain(version.script, bundleFilename(versionId))) ?? version.cachedData;
  }
}

// Compiling runs in the isolate outside any call: allowed once, then the leftover clock restarts.
async function warmCachesOnce(versionId, entry) {
  entry.idleAllowanceNs += WARM_ALLOWANCE_NS;
  try {
    await warmCaches(versionId, entry);
  } finally {
    entry.idleAllowanceNs -= WARM_ALLOWANCE_NS;
    if (entry.idleCpuStart !== undefined) entry.idleCpuStart = cpuTimeOf(entry);
  }
}

function entryFor(versionId) {
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
function clearTimers(call) {
  for (const timer of call.timers) clearTimeout(timer);
  call.entry.pending -= call.timers.size;
  call.timers.clear();
}

function dispose(versionId, entry, reason) {
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
function evict(versionId, entry) {
  dispose(versionId, entry, 'evicted');
  versions.delete(versionId);
  send({ type: 'evicted', versionId });
}

// Whether calls wait to enter the isolate (see runCall): it is not evicted under them.
const awaited = (entry) => entry.poolIdle.length > 0;

// The calls waiting to enter the isolate go on: it is idle, or gone (then they find its successor).
function wakeWaiting(entry) {
  const waiting = entry.poolIdle;
  entry.poolIdle = [];
  for (const resolve of waiting) resolve();
}

// Whether a call uses the isolate; with `live`, only calls the host still waits for (not abandoned).
// A call whose result has come (`done`: posted by an entry on this thread) uses it no more.
function inUse(entry, live = false) {
  for (const call of calls.values()) {
    if (call.entry === entry && !call.done && !(live && call.abandoned)) return true;
  }
  return false;
}

function evictOverLimit() {
  while (ready.size > maxIsolates) {
    let oldest;
    for (const [versionId, entry] of ready) {
      if (!inUse(entry) && !awaited(entry) && (oldest === undefined || entry.lastUsed < oldest[1].lastUsed)) {
        oldest = [versionId, entry];
      }
    }
    if (oldest === undefined) return; // every isolate is busy: the limit waits for one to finish
    evict(oldest[0], oldest[1]);
  }
}

function evictIdle() {
  const now = Date.now();
  for (const [versionId, entry] of ready) {
    if (!inUse(entry) && !awaited(entry) && now - entry.lastUsed >= idleMs) evict(versionId, entry);
  }
}

// A result over CROSSING_CHARS (its length as the isolate says or as measured here): the call fails.
// Made only here: an error from an isolate is never one.
class ResultTooLargeError extends Error {
  constructor(length) {
    super(overLimit("the handler's result as JSON", length, CROSSING_CHARS));
  }
}

function failure(entry, error) {
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
      ? { kind: 'memory', message: `the handler went past the isolate's ${memoryLimitMb} MiB memory limit` }
      : { kind: 'disposed', message: 'the isolate was disposed during the call' };
  }
  return { kind: 'error', name: String(error?.name ?? 'Error'), message: String(error?.message ?? error) };
}

// `onPool`: a call stopped on this thread runs again on the pool. `replay`: the transcript and
// the count of log lines of a first run stopped after an await (see TRANSCRIPT_ENTRIES).
async function runCall(message, retried = false, onPool = false, replay = undefined) {
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
  let entry;
  let call;
  let retry = false;
  let stopped = false;
  try {
    // On this thread only when nothing else of the isolate runs or waits on the pool. Work the pool
    // is finishing for it (no call waiting on a request) is waited for here: the isolate runs one
    // thing at a time either way, and entering it from both sides by turns costs more than either.
    let now;
    for (;;) {
      entry = await entryFor(versionId);
      const open = !onPool && !inUse(entry) && !pooledVersions.has(versionId);
      now = open && entry.poolTasks === 0;
      if (!open || now) break;
      await new Promise((resolve) => entry.poolIdle.push(resolve));
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
      reruns.replayed++;
    }
    calls.set(callId, call);
    watchCalls();
    const value = await (now ? runNow(call, callId, message) : runPooled(call, callId, message));
    if (call.replay !== undefined && call.replay.length > 0) {
      diverge(entry, `ended without asking for ${call.replay[0].method}, which the first run asked for`);
      throw new Error('the rerun diverged');
    }
    // The prelude answers JSON text; anything else (a Reference) never goes to the host.
    if (value !== undefined && typeof value !== 'string')
      throw new Error('the isolate answered no JSON text');
    if (value !== undefined && value.length > CROSSING_CHARS) throw new ResultTooLargeError(value.length);
    // "\0<used>\0<result>": preloaded storage values the call used after its last request.
    let used;
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
function runPooled(call, callId, message) {
  callsOnPool++;
  return poolWork(
    call.entry,
    call.entry.run.apply(undefined, [callId, message.request, message.deadline, call.slot], {
      result: { promise: true },
    }),
  );
}

// A call entered on this thread (see RUN_NOW_TIMEOUT_MS). What it does up to its first await runs
// now; its result comes through a 'done' post once its handler settles (here or on the pool).
function runNow(call, callId, message) {
  const { entry, versionId } = call;
  const settled = new Promise((resolve, reject) => {
    call.settle = resolve;
    call.fail = reject;
  });
  // Should the entry below throw, nothing awaits this promise when a later dispose rejects it.
  settled.catch(() => {});
  callsOnThread++;
  const before = cpuTimeOf(entry);
  try {
    entry.enter.applySync(undefined, [callId, message.request, message.deadline, call.slot], {
      timeout: RUN_NOW_TIMEOUT_MS,
    });
    // What the entry posted and logged, in order: requests, log lines and, if the handler settled
    // within it, its result ('done'). Read like the isolate's callbacks, and as untrusted.
    const held = entry.deliver.applySync(undefined, [-2], {
      timeout: RUN_NOW_TIMEOUT_MS,
      result: { copy: true },
    });
    handOver(entry, held);
  } catch (error) {
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
function handOver(entry, held) {
  if (!Array.isArray(held)) return;
  for (let at = 0; at + 6 < held.length; at += 7) {
    if (held[at] === 1) entry.log(held[at + 1], held[at + 2]);
    else entry.post(held[at + 1], held[at + 2], held[at + 3], held[at + 4], held[at + 5], held[at + 6]);
  }
}

// An entry's CPU on this thread: a version whose first entries, or whose continuations, average
// past RUN_NOW_MEAN_NS goes to the pool (`kind`: 'entryNs' or 'continuationNs', averaged apart so
// that short continuations do not hide long entries).
function learn(versionId, ns, kind) {
  const version = versions.get(versionId);
  if (version === undefined) return;
  version[kind] = (version[kind] ?? 0) * 0.9 + Number(ns) * 0.1;
  if (version[kind] > RUN_NOW_MEAN_NS && !pooledVersions.has(versionId)) poolVersion(versionId, 'mean');
}

// The first request of a call's transcript, or the next: a slot its answer fills (undefined: none kept).
function transcribe(call, method, args) {
  if (call.transcript === undefined) return undefined;
  if (call.transcript.length >= TRANSCRIPT_ENTRIES) {
    call.transcript = undefined;
    return undefined;
  }
  const record = { method, args, reply: undefined };
  call.transcript.push(record);
  return record;
}

// Whether a capability answer for `call` is delivered on this thread (see TRANSCRIPT_ENTRIES).
function continuesHere(entry, call) {
  if (call.settle === undefined || call.done || call.abandoned || call.transcript === undefined) return false;
  // (A call that set a timer keeps no transcript.)
  if (entry.poolTasks > 0 || entry.pending > 0 || entry.randomDraws !== call.randomDraws) return false;
  if (pooledVersions.has(entry.versionId) || !hasStarted(call)) return false;
  // Room left in the call's CPU budget for a whole slice: a stop is then never the budget's.
  if (call.cpuLimitNs - (cpuTimeOf(entry) - call.cpuStart) < 2n * RUN_NOW_TIMEOUT_NS) return false;
  for (const other of calls.values())
    if (other !== call && other.entry === entry && !other.done) return false;
  return true;
}

// A capability answer delivered on this thread; the code that continues runs within the slice.
function continueNow(entry, call, id, value) {
  const { versionId } = entry;
  continuationsOnThread++;
  const before = cpuTimeOf(entry);
  try {
    // The request id is the isolate's word, like everything from it: a positive number or nothing.
    const request = typeof id === 'number' && id > 0 ? id : -1;
    entry.deliver.applySync(undefined, [-3, typeof value === 'string' ? value : undefined, request], {
      timeout: RUN_NOW_TIMEOUT_MS,
    });
    handOver(
      entry,
      entry.deliver.applySync(undefined, [-2], { timeout: RUN_NOW_TIMEOUT_MS, result: { copy: true } }),
    );
  } catch (error) {
    if (!entry.isolate.isDisposed && /timed out/i.test(String(error?.message))) {
      // Nothing of the stopped continuation left the isolate: the call runs again, replaying.
      afterStop(versionId);
      call.rerun = { transcript: call.transcript, logLines: call.logLines };
      dispose(versionId, entry, 'stopped');
    } else {
      call.fail(error);
      dispose(versionId, entry, 'disposed');
    }
    return;
  }
  learn(versionId, cpuTimeOf(entry) - before, 'continuationNs');
  entry.ranNow = true;
}

// A rerun that does not repeat its first run fails; its version continues on the pool from now on.
function diverge(entry, what) {
  reruns.diverged++;
  if (!pooledVersions.has(entry.versionId)) poolVersion(entry.versionId, 'diverged');
  entry.diverged = what;
  dispose(entry.versionId, entry, 'diverged');
}

// An entry stopped at the slice: its version goes to the pool at the second within STOPS_WINDOW_MS.
function afterStop(versionId) {
  const now = Date.now();
  const last = lastStops.get(versionId);
  if (last !== undefined && now - last < STOPS_WINDOW_MS) {
    lastStops.delete(versionId);
    poolVersion(versionId, 'stoppedTwice');
    return;
  }
  stopsForgiven++;
  remember(lastStops, versionId, now);
}

// `reason`: a key of `pooledFor`.
function poolVersion(versionId, reason) {
  pooledFor[reason]++;
  remember(pooledVersions, versionId, reason);
}

// Sets a key as the newest of a map of versions; the oldest go past POOLED_VERSIONS_KEPT.
function remember(recent, versionId, value) {
  recent.delete(versionId);
  recent.set(versionId, value);
  if (recent.size > POOLED_VERSIONS_KEPT) recent.delete(recent.keys().next().value);
}

// Work sent to the isolate's pool thread: until it settles, no call enters on this thread.
function poolWork(entry, task) {
  entry.poolTasks++;
  const settled = () => {
    if (--entry.poolTasks === 0) wakeWaiting(entry);
  };
  task.then(settled, settled);
  return task;
}

// The tasks V8 posted to an idle isolate that took calls on this thread, run on the pool.
function drainIfDue(entry, now) {
  if (!entry.ranNow || now - entry.drainedAt < DRAIN_MS) return;
  if (entry.disposed || entry.poolTasks > 0 || inUse(entry)) return;
  entry.ranNow = false;
  entry.drainedAt = now;
  poolWork(entry, entry.deliver.apply(undefined, [-1])).catch(() => {});
}

// A call ends here when its handler settles.
function release(callId) {
  const call = calls.get(callId);
  if (call === undefined) return;
  calls.delete(callId);
  const { entry } = call;
  // Seen before the idle clock below restarts: a call that ran counts nothing as leftover work.
  hasStarted(call);
  if (call.slot >= 0) entry.freeStartSlots.push(call.slot);
  clearTimers(call);
  entry.ended.add(callId);
  if (entry.ended.size > ENDED_CALLS_KEPT) entry.ended.delete(entry.ended.values().next().value);
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
function abandon(callId) {
  const call = calls.get(callId);
  if (call === undefined || call.abandoned) return;
  call.abandoned = true;
  clearTimers(call);
  if (!inUse(call.entry, true)) dispose(call.versionId, call.entry, 'timeout');
}

// The CPU watchdog: `timeout` options only bound synchronous runs, so a loop that starts after an
// `await` is caught here, from the isolate's own CPU clock. A call's CPU counts against its own
// budget; CPU an isolate uses while none of its calls runs (timers, promise chains or loops a
// handler left behind) counts against the small leftover budget, and past it the isolate goes.
let watchdog;
let watchdogMs = 0;

// The next tick: every 5 ms while any call runs, every 50 ms otherwise.
function scheduleWatchdog() {
  watchdogMs = calls.size > 0 ? WATCHDOG_INTERVAL_MS : IDLE_WATCHDOG_INTERVAL_MS;
  watchdog = setTimeout(watch, watchdogMs).unref();
}

// A call has begun: a tick on the idle cadence is brought forward to the calls' cadence.
function watchCalls() {
  if (watchdogMs === WATCHDOG_INTERVAL_MS) return;
  clearTimeout(watchdog);
  scheduleWatchdog();
}

function watch() {
  // Calls first: a start mark seen here stops the idle clock before the leftover check below.
  for (const [callId, call] of calls) {
    flushLogs(callId, call);
    if (call.entry.disposed || !hasStarted(call)) continue;
    if (cpuTimeOf(call.entry) - call.cpuStart > call.cpuLimitNs) dispose(call.versionId, call.entry, 'cpu');
  }
  const now = Date.now();
  for (const [versionId, entry] of ready) {
    drainIfDue(entry, now);
    if (entry.disposed || entry.idleCpuStart === undefined) continue;
    const used = cpuTimeOf(entry) - entry.idleCpuStart;
    if (used > leftoverCpuNs + entry.idleAllowanceNs) {
      send({ type: 'leftover', versionId, cpuMs: Number(used / 1_000_000n) });
      dispose(versionId, entry, 'leftover');
    }
  }
  scheduleWatchdog();
}
scheduleWatchdog();

process.on('message', (message) => {
  deliveriesIn++;
  if (message.type !== 'batch') receive(message);
  else for (const each of message.messages) receive(each);
});

function receive(message) {
  messagesIn++;
  switch (message.type) {
    case 'init':
      preludeText = message.prelude;
      definitionCheckedGlobal = message.definitionCheckedGlobal;
      memoryLimitMb = message.memoryLimitMb;
      maxIsolates = message.maxIsolates;
      idleMs = message.idleMs;
      leftoverCpuNs = BigInt(Math.round(message.leftoverCpuMs * 1e6));
      RUN_NOW_TIMEOUT_MS = message.threadSliceMs;
      RUN_NOW_TIMEOUT_NS = BigInt(Math.round(message.threadSliceMs * 1e6));
      RUN_NOW_MEAN_NS = Math.round(message.threadSliceMs * 1e5);
      setInterval(evictIdle, Math.max(10, Math.min(idleMs / 4, 30_000))).unref();
      send({ type: 'ready' });
      break;
    case 'call':
      runCall(message);
      break;
    case 'cap-result': {
      const resolve = capReplies.get(message.capId);
      capReplies.delete(message.capId);
      resolve?.(message.reply);
      break;
    }
    case 'abandon':
      abandon(message.callId);
      break;
    case 'stats':
      send({
        type: 'stats',
        statsId: message.statsId,
        isolates: ready.size,
        versions: versions.size,
        callsOnThread,
        callsOnPool,
        pooledVersions: pooledVersions.size,
        pooledFor,
        stopsForgiven,
        continuationsOnThread,
        reruns,
        messagesIn,
        deliveriesIn,
      });
      break;
  }
}
process.on('disconnect', () => process.exit(0));
