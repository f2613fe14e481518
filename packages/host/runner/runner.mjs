// A runner process: runs partner code in V8 isolates (isolated-vm) for the host process, which
// forks it with `--no-node-snapshot`, the permission model (file reads limited to this folder and
// isolated-vm) and an empty environment. Messages over the IPC channel, JSON only:
//   host -> runner: init { prelude, memoryLimitMb }, call { callId, versionId, script?, request,
//                   cpuLimitMs, ephemeral? }, cap-result { capId, reply }, abandon { callId }
//   runner -> host: ready, cap { callId, capId, method, args }, log { callId, entry },
//                   result { callId, ok, value | error: { kind, message } }
// Plain JavaScript so the forked process needs no TypeScript loader.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const ivm = createRequire(import.meta.url)(process.argv[2]);

const WATCHDOG_INTERVAL_MS = 5;
let preludeText = '';
let preludeCache;
let memoryLimitMb = 128;
/** versionId -> { script, cachedData } */
const versions = new Map();
/** versionId -> Promise<Entry>; an Entry is one isolate with the version loaded. */
const entries = new Map();
/** callId -> { entry, cpuStart, cpuLimitNs } */
const calls = new Map();
/** capId -> resolve */
const capReplies = new Map();
let nextCap = 1;

const send = (message) => {
  if (process.connected) process.send(message);
};

function hostCall(callId, method, args) {
  if (!calls.has(callId)) {
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
  if (calls.has(callId)) send({ type: 'log', callId, entry });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(Number(ms) || 0, 2 ** 31 - 1)));

async function createEntry(versionId) {
  const version = versions.get(versionId);
  if (version === undefined) throw new Error(`runner has no code for version ${versionId}`);
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
  const entry = { isolate, run: undefined, deliver: undefined, disposed: false, reason: undefined };
  try {
    const context = await isolate.createContext();
    await context.evalClosure('globalThis.__platformBridge = { post: $0, log: $1, randomBytes: $2 };', [
      new ivm.Callback(poster(entry), { ignored: true }),
      new ivm.Callback(log, { ignored: true }),
      new ivm.Callback((n) => randomBytes(Math.min(Number(n) || 0, 65536)).toString('base64'), {
        sync: true,
      }),
    ]);
    const prelude = await isolate.compileScript(preludeText, {
      filename: 'platform:prelude.js',
      ...(preludeCache ? { cachedData: preludeCache } : { produceCachedData: true }),
    });
    if (!preludeCache && prelude.cachedData) preludeCache = prelude.cachedData;
    await prelude.run(context, { timeout: 5000 });
    entry.deliver = await context.global.get('__platformDeliver', { reference: true });
    await context.eval('delete globalThis.__platformDeliver');
    const script = await isolate.compileScript(version.script, {
      filename: `platform:bundle/${versionId}.js`,
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

function entryFor(versionId) {
  let entry = entries.get(versionId);
  if (entry === undefined) {
    entry = createEntry(versionId);
    entries.set(versionId, entry);
    entry.catch(() => entries.delete(versionId));
  }
  return entry;
}

function dispose(versionId, entry, reason) {
  if (entry.disposed) return;
  entry.disposed = true;
  entry.reason = reason;
  entries.delete(versionId);
  if (!entry.isolate.isDisposed) entry.isolate.dispose();
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
    versions.set(versionId, { script: message.script, cachedData: undefined });
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
  } catch (error) {
    if (entry?.isolate.isDisposed) dispose(versionId, entry, entry.reason ?? 'disposed');
    send({ type: 'result', callId, ok: false, error: failure(entry, error) });
  } finally {
    calls.delete(callId);
    // A version loaded only to read its definition (install, the gate) is not kept.
    if (message.ephemeral) {
      versions.delete(versionId);
      if (entry !== undefined) dispose(versionId, entry, 'ephemeral');
    }
  }
}

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
      calls.delete(message.callId);
      break;
  }
});
process.on('disconnect', () => process.exit(0));
