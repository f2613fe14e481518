// A runner process: runs partner code in V8 isolates (isolated-vm) for the host process, which
// forks it with `--no-node-snapshot`, the permission model (file reads limited to this folder and
// isolated-vm) and an empty environment. Messages over the IPC channel, JSON only:
//   host -> runner: init { prelude, memoryLimitMb, maxIsolates, idleMs }, call { callId, versionId,
//                   script?, request, cpuLimitMs, ephemeral? }, cap-result { capId, reply },
//                   abandon { callId }, stats { statsId }
//   runner -> host: ready, cap { callId, capId, method, args }, log { callId, entry },
//                   result { callId, ok, value | error: { kind, message } }, evicted { versionId },
//                   stats { statsId, isolates, versions }
// A call without `script` for a version this runner has evicted answers `missing_code`; the host
// sends it again with the script.
// Plain JavaScript so the forked process needs no TypeScript loader.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const ivm = createRequire(import.meta.url)(process.argv[2]);

const WATCHDOG_INTERVAL_MS = 5;
let preludeText = '';
let preludeCache;
let preludeCacheWarm = false;
// Set by `init` (the host holds the defaults).
let memoryLimitMb;
let maxIsolates;
let idleMs;
const PRELUDE_FILENAME = 'platform:prelude.js';
const bundleFilename = (versionId) => `platform:bundle/${versionId}.js`;
/** versionId -> { script, cachedData, cacheWarm } */
const versions = new Map();
/** versionId -> Promise<Entry>; an Entry is one isolate with the version loaded. */
const entries = new Map();
/** versionId -> Entry, once created: what eviction looks at. */
const ready = new Map();
/** callId -> { entry, versionId, cpuStart, cpuLimitNs, abandoned? }: what uses each isolate. */
const calls = new Map();
/** capId -> resolve */
const capReplies = new Map();
let nextCap = 1;

const send = (message) => {
  if (process.connected) process.send(message);
};

function hostCall(callId, method, args) {
  if (!live(callId)) {
    return Promise.resolve(
      JSON.stringify({ ok: false, error: { name: 'Error', message: 'this call has already ended' } }),
    );
  }
  const capId = nextCap++;
  return new Promise((resolve) => {
    capReplies.set(capId, resolve);
    send({ type: 'cap', callId, capId, method, args: String(args) });
  });
}

// What the isolate posts: no Node object or reference ever enters it; answers go back through
// the isolate's own `__platformDeliver`, called from here.
function poster(entry) {
  return (kind, id, a, b, c) => {
    const answer =
      kind === 'cap' ? hostCall(String(a), String(b), c) : kind === 'sleep' ? sleep(a) : undefined;
    answer?.then((value) => {
      if (entry.disposed || entry.deliver === undefined) return;
      entry.deliver.apply(undefined, [id, value], { arguments: { copy: true } }).catch(() => {});
    });
  };
}

function log(callId, entry) {
  if (live(callId)) send({ type: 'log', callId, entry });
}

// crypto.subtle's digests and HMACs (prelude/subtle.js): base64 text in and out, node:crypto here.
const SUBTLE_HASHES = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
function subtle(op, hash, key, data) {
  const algorithm = SUBTLE_HASHES[String(hash)];
  if (algorithm === undefined) throw new Error(`unsupported hash ${String(hash)}`);
  const bytes = Buffer.from(String(data), 'base64');
  if (op === 'digest') return createHash(algorithm).update(bytes).digest('base64');
  if (op === 'hmac') {
    return createHmac(algorithm, Buffer.from(String(key), 'base64'))
      .update(bytes)
      .digest('base64');
  }
  throw new Error(`unknown crypto operation ${String(op)}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(Number(ms) || 0, 2 ** 31 - 1)));

async function createEntry(versionId) {
  const version = versions.get(versionId);
  if (version === undefined) throw new Error(`runner has no code for version ${versionId}`);
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
  const entry = {
    isolate,
    run: undefined,
    deliver: undefined,
    disposed: false,
    reason: undefined,
    lastUsed: Date.now(),
  };
  try {
    const context = await isolate.createContext();
    await context.evalClosure(
      'globalThis.__platformBridge = { post: $0, log: $1, randomBytes: $2, subtle: $3 };',
      [
        new ivm.Callback(poster(entry), { ignored: true }),
        new ivm.Callback(log, { ignored: true }),
        new ivm.Callback((n) => randomBytes(Math.min(Number(n) || 0, 65536)).toString('base64'), {
          sync: true,
        }),
        new ivm.Callback(subtle, { sync: true }),
      ],
    );
    const prelude = await isolate.compileScript(preludeText, {
      filename: PRELUDE_FILENAME,
      ...(preludeCache ? { cachedData: preludeCache } : { produceCachedData: true }),
    });
    if (!preludeCache && prelude.cachedData) preludeCache = prelude.cachedData;
    await prelude.run(context, { timeout: 5000 });
    entry.deliver = await context.global.get('__platformDeliver', { reference: true });
    await context.eval('delete globalThis.__platformDeliver');
    const script = await isolate.compileScript(version.script, {
      filename: bundleFilename(versionId),
      ...(version.cachedData ? { cachedData: version.cachedData } : { produceCachedData: true }),
    });
    if (!version.cachedData && script.cachedData) version.cachedData = script.cachedData;
    await script.run(context, { timeout: 5000 });
    entry.run = await context.global.get('__platformRun', { reference: true });
    await context.eval('delete globalThis.__platformRun');
    return entry;
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    throw error;
  }
}

// V8's code cache made at compile time holds only the top level: every function that runs later
// is compiled again in each new isolate. Compiled again in an isolate that has run a call, the same
// source comes from V8's compilation cache with those functions compiled, and the cache made then
// holds them too (cold starts about halve). Done once per runner for the prelude and per version.
const cacheIsCold = (versionId) => !preludeCacheWarm || versions.get(versionId)?.cacheWarm === false;

async function warmCaches(versionId, entry) {
  const cacheAgain = async (source, filename) =>
    (await entry.isolate.compileScript(source, { filename, produceCachedData: true })).cachedData;
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

function dispose(versionId, entry, reason) {
  if (entry.disposed) return;
  entry.disposed = true;
  entry.reason = reason;
  entries.delete(versionId);
  if (ready.get(versionId) === entry) ready.delete(versionId);
  if (!entry.isolate.isDisposed) entry.isolate.dispose();
}

// Isolates are bounded: past `maxIsolates` the least recently used idle one goes, and any idle for
// `idleMs`. Its code goes too (the host sends it again with the next call), so a runner's memory
// follows the versions in use, not every version it ever ran.
function evict(versionId, entry) {
  dispose(versionId, entry, 'evicted');
  versions.delete(versionId);
  send({ type: 'evicted', versionId });
}

// Whether a call uses the isolate; with `live`, only calls the host still waits for (not abandoned).
function inUse(entry, live = false) {
  for (const call of calls.values()) if (call.entry === entry && !(live && call.abandoned)) return true;
  return false;
}

function evictOverLimit() {
  while (ready.size > maxIsolates) {
    let oldest;
    for (const [versionId, entry] of ready) {
      if (!inUse(entry) && (oldest === undefined || entry.lastUsed < oldest[1].lastUsed)) {
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
    if (!inUse(entry) && now - entry.lastUsed >= idleMs) evict(versionId, entry);
  }
}

function failure(entry, error) {
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

async function runCall(message) {
  const { callId, versionId } = message;
  if (message.script !== undefined && !versions.has(versionId)) {
    versions.set(versionId, { script: message.script, cachedData: undefined, cacheWarm: false });
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
  try {
    entry = await entryFor(versionId);
    calls.set(callId, {
      entry,
      versionId,
      cpuStart: entry.isolate.cpuTime,
      cpuLimitNs: BigInt(Math.round(message.cpuLimitMs * 1e6)),
    });
    const value = await entry.run.apply(undefined, [callId, message.request], {
      arguments: { copy: true },
      result: { promise: true, copy: true },
    });
    send({ type: 'result', callId, ok: true, value });
    if (!message.ephemeral && cacheIsCold(versionId)) warmCaches(versionId, entry).catch(() => {});
  } catch (error) {
    if (entry?.isolate.isDisposed) dispose(versionId, entry, entry.reason ?? 'disposed');
    send({ type: 'result', callId, ok: false, error: failure(entry, error) });
  } finally {
    release(callId);
    // A version loaded only to read its definition (install, the gate) is not kept.
    if (message.ephemeral) {
      versions.delete(versionId);
      if (entry !== undefined) dispose(versionId, entry, 'ephemeral');
    }
  }
}

// A call ends here when its handler settles.
function release(callId) {
  const call = calls.get(callId);
  if (call === undefined) return;
  calls.delete(callId);
  if (call.abandoned) return;
  call.entry.lastUsed = Date.now();
  // The last live call of an isolate that still runs abandoned handlers takes it down with it.
  if (inUse(call.entry) && !inUse(call.entry, true)) dispose(call.versionId, call.entry, 'timeout');
}

// The host's wall-clock budget ran out: the call has already failed there. Its handler may still
// be running (awaiting forever, or about to loop): the isolate is disposed as soon as no other
// call uses it, and until then the watchdog keeps counting the call's CPU.
function abandon(callId) {
  const call = calls.get(callId);
  if (call === undefined || call.abandoned) return;
  call.abandoned = true;
  if (!inUse(call.entry, true)) dispose(call.versionId, call.entry, 'timeout');
}

const live = (callId) => {
  const call = calls.get(callId);
  return call !== undefined && !call.abandoned;
};

// The CPU watchdog: `timeout` options only bound synchronous runs, so a loop that starts after an
// `await` is caught here, from the isolate's own CPU clock.
setInterval(() => {
  for (const call of calls.values()) {
    if (call.entry.disposed) continue;
    let used;
    try {
      used = call.entry.isolate.cpuTime - call.cpuStart;
    } catch {
      continue;
    }
    if (used > call.cpuLimitNs) dispose(call.versionId, call.entry, 'cpu');
  }
}, WATCHDOG_INTERVAL_MS).unref();

process.on('message', (message) => {
  switch (message.type) {
    case 'init':
      preludeText = message.prelude;
      memoryLimitMb = message.memoryLimitMb;
      maxIsolates = message.maxIsolates;
      idleMs = message.idleMs;
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
      send({ type: 'stats', statsId: message.statsId, isolates: ready.size, versions: versions.size });
      break;
  }
});
process.on('disconnect', () => process.exit(0));
