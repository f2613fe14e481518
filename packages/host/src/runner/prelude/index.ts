// The isolate's prelude: web APIs partner code expects, and the glue between the guest engine and
// the runner. It runs first in every new context, before the version's bundle. The runner sets
// `__platformBridge` (isolated-vm Callbacks: only copied primitives cross) and removes it here, so
// partner code never sees it; everything the glue needs is captured before partner code runs.

import { CROSSING_CHARS, droppedLogLine, LOG_LINE_CHARS, overLimit, requestRefusal } from '../limits.js';
import { AbortController, AbortSignal, Event, EventTarget } from './abort.js';
import { base64ToBytes } from './bytes.js';
import { atob, btoa, DOMException, URL, URLSearchParams } from './coreJs.js';
import { TextDecoder, TextEncoder } from './encoding.js';
import { Headers, Request, Response } from './fetchTypes.js';
import { withoutPostedTasks } from './postedTasks.js';
import { structuredClone } from './structuredClone.js';
import { CryptoKey, createSubtle } from './subtle.js';

const g = globalThis;
const bridge = g.__platformBridge;
delete g.__platformBridge;
const { post: postToRunner, log: logToRunner, randomBytes, subtle: subtleBridge, begin, flags } = bridge;
const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
const setPrototypeOf = Object.setPrototypeOf;
// While the runner's synchronous entry into a call lasts, what the isolate posts and logs is held
// here, seven slots each (0 and post's arguments, or 1, call id and line), and handed over in order
// when it ends: no message wakes the runner's thread for it, and nothing of a stopped entry leaves.
// An array without a prototype, written by index: no setter or `push` partner code puts on
// Array.prototype ever sees it (and adds to what is copied out).
let held;
const hold = (a, b, c, d, e, f, h) => {
  let at = held.length;
  held[at++] = a;
  held[at++] = b;
  held[at++] = c;
  held[at++] = d;
  held[at++] = e;
  held[at++] = f;
  held[at] = h;
};
const post = (kind, id, a, b, c, d) => {
  if (held === undefined) postToRunner(kind, id, a, b, c, d);
  else hold(0, kind, id, a, b, c, d);
};
// Every line is a fresh string made here (JSON text of its entry, see lineOf), so what is held is
// at most what the isolate's memory holds.
const log = (callId, line) => {
  if (held === undefined) logToRunner(callId, line);
  else hold(1, callId, line, undefined, undefined, undefined, undefined);
};
// A log entry as the line that crosses: its JSON text, within LOG_LINE_CHARS. A longer message is
// cut to MESSAGE_CHARS (the host reads at most four times its line cap of a message before
// redaction, 32 KiB by default, and cuts it again after), then fields that still do not fit are
// dropped, saying so; a line still too long (a message JSON escapes to six times its length) is
// replaced by one saying it was dropped.
const MESSAGE_CHARS = LOG_LINE_CHARS / 2;
const stringSlice = String.prototype.slice;
function lineOf(entry) {
  const line = jsonStringify(entry);
  if (typeof line !== 'string' || line.length <= LOG_LINE_CHARS) return line;
  const { level, message, fields } = entry;
  const cut = typeof message === 'string' ? reflectApply(stringSlice, message, [0, MESSAGE_CHARS]) : message;
  const withFields = jsonStringify({ level, message: cut, fields });
  if (withFields.length <= LOG_LINE_CHARS) return withFields;
  const fieldsDropped = `fields dropped: ${overLimit('the line', line.length, LOG_LINE_CHARS)}`;
  const withoutFields = jsonStringify({ level, message: cut, fields: { fieldsDropped } });
  if (withoutFields.length <= LOG_LINE_CHARS) return withoutFields;
  return droppedLogLine(line.length, jsonStringify);
}
// Taken now: partner code may replace the globals, and these touch the runner's shared memory.
const atomicsStore = Atomics.store;
const Int32ArrayOf = Int32Array;
const promiseThen = Promise.prototype.then;
const reflectApply = Reflect.apply;
// The call the runner enters next on its own thread (applySync) and its start flag: said through
// `__platformDeliver`, which only the runner holds, so it holds even where a bundle wraps `__platformRun`.
let runNowCall;
let runNowSlot = -1;

// The runner's start flags for this isolate (shared memory it reads): a call marks its slot when its
// code starts, with no message (so no wake-up of the runner's thread per call).
const startFlags = new Int32ArrayOf(flags);
// isolated-vm cannot run the delayed task a timed Atomics.waitAsync posts: the runner process
// aborts (every call on it fails). Partner code has no use for it: there is no other thread.
delete Atomics.waitAsync;
withoutPostedTasks(g);

// Asynchronous requests to the runner: `post` sends (arguments are copied strings and numbers) and
// the runner answers later by calling `__platformDeliver` through a reference only it holds.
// Each request remembers the call that made it: when the answer is delivered, the code that
// continues is that call's, so console lines logged from there go to its log. The runner answers
// a request only while the call it names runs in this isolate; nothing here is trusted by it.
const waiting = new Map();
let nextRequest = 1;
let currentCall;
function request(kind, owner, a, b, c, d) {
  const id = nextRequest++;
  const size = (typeof c === 'string' ? c.length : 0) + (typeof d === 'string' ? d.length : 0);
  // Refused here, as the runner would: the handler gets an error it can catch.
  if (kind === 'cap' && size > CROSSING_CHARS) {
    const refusal = requestRefusal(b, size, jsonStringify);
    return new Promise((resolve) => resolve(refusal));
  }
  return new Promise((resolve) => {
    waiting.set(id, { resolve, owner });
    post(kind, id, a, b, c, d);
  });
}
// A capability call names its call; a timer belongs to the call whose code set it. `used`: the
// preloaded storage values the call used since its last request (JSON text), or undefined.
const hostCall = (callId, method, args, used) => request('cap', callId, callId, method, args, used);
const sleep = (ms) => request('sleep', currentCall, ms, currentCall);

function define(name, value) {
  Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
}

// Timers: the runner waits, the isolate runs the callback; cleared ids are skipped when they fire.
let nextTimer = 1;
const timers = new Set();
function setTimeoutShim(callback, ms = 0, ...args) {
  const id = nextTimer++;
  timers.add(id);
  sleep(Math.max(0, Number(ms) || 0)).then(() => {
    if (!timers.delete(id)) return;
    if (typeof callback === 'function') callback(...args);
  });
  return id;
}
function clearTimeoutShim(id) {
  timers.delete(id);
}
function setIntervalShim(callback, ms = 0, ...args) {
  const id = nextTimer++;
  timers.add(id);
  const tick = () =>
    sleep(Math.max(1, Number(ms) || 0)).then(() => {
      if (!timers.has(id)) return;
      callback(...args);
      tick();
    });
  tick();
  return id;
}

const crypto = {
  getRandomValues(array) {
    if (
      !ArrayBuffer.isView(array) ||
      array instanceof DataView ||
      array instanceof Float32Array ||
      array instanceof Float64Array
    ) {
      throw new DOMException('crypto.getRandomValues needs an integer typed array', 'TypeMismatchError');
    }
    if (array.byteLength > 65536) {
      throw new DOMException('crypto.getRandomValues: at most 65536 bytes', 'QuotaExceededError');
    }
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(
      base64ToBytes(randomBytes(array.byteLength)),
    );
    return array;
  },
  get subtle() {
    return subtle;
  },
  randomUUID() {
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  },
};

const subtle = createSubtle(subtleBridge, (array) => crypto.getRandomValues(array));

// console goes to the logger of the call whose code is running: the one that started it, or whose
// request (capability call, timer) was answered last.
const format = (args) =>
  args
    .map((arg) => {
      if (typeof arg === 'string') return arg;
      if (arg instanceof Error) return `${arg.name}: ${arg.message}`;
      try {
        return jsonStringify(arg) ?? String(arg);
      } catch {
        return String(arg);
      }
    })
    .join(' ');
const consoleLevel =
  (level) =>
  (...args) => {
    if (currentCall !== undefined) log(currentCall, lineOf({ level, message: format(args) }));
  };
const console = {
  debug: consoleLevel('debug'),
  log: consoleLevel('info'),
  info: consoleLevel('info'),
  warn: consoleLevel('warn'),
  error: consoleLevel('error'),
  trace: consoleLevel('debug'),
};

for (const [name, value] of Object.entries({
  URL,
  URLSearchParams,
  TextEncoder,
  TextDecoder,
  atob,
  btoa,
  Headers,
  Request,
  Response,
  AbortController,
  AbortSignal,
  DOMException,
  Event,
  EventTarget,
  structuredClone,
  crypto,
  CryptoKey,
  console,
  setTimeout: setTimeoutShim,
  clearTimeout: clearTimeoutShim,
  setInterval: setIntervalShim,
  clearInterval: clearTimeoutShim,
  queueMicrotask: (callback) => {
    Promise.resolve().then(() => callback());
  },
})) {
  define(name, value);
}
define('self', g);

// Capabilities over the bridge: each call sends JSON text and gets JSON text back. `preload`: the
// storage values the host read ahead for this call (the keys its handler read last time); a get of
// one of them answers here, and the key travels as used with the call's next request or its result,
// so the host counts the read (what a commit checks). A write of the key makes the host's view the
// one to read from.
const aheadId = (scope, key) => `${scope}\n${key}`;
function capabilitiesFor(callId, preload) {
  const ahead = new Map();
  if (Array.isArray(preload)) for (const entry of preload) ahead.set(aheadId(entry.scope, entry.key), entry);
  let used = [];
  const takeUsed = () => {
    if (used.length === 0) return undefined;
    const text = jsonStringify(used);
    used = [];
    return text;
  };
  const call = async (method, args) => {
    const reply = jsonParse(await hostCall(callId, method, jsonStringify(args), takeUsed()));
    if (reply.ok) return reply.value;
    // Name, message, code and properties; the guest engine rebuilds the sdk's own error class.
    const error = new Error(reply.error.message);
    for (const [key, value] of Object.entries(reply.error)) if (key !== 'message') error[key] = value;
    throw error;
  };
  const capabilities = {
    fetch: (request) => call('fetch', [request]),
    storage: {
      get: (scope, key) => {
        const entry = ahead.get(aheadId(scope, key));
        if (entry === undefined) return call('storage.get', [scope, key]);
        if (!entry.used) {
          entry.used = true;
          used.push({ scope, key });
        }
        // A copy per read, as the host's answer would be.
        return Promise.resolve('value' in entry ? jsonParse(jsonStringify(entry.value)) : undefined);
      },
      set: (scope, key, value) => {
        ahead.delete(aheadId(scope, key));
        return call('storage.set', [scope, key, value]);
      },
      delete: (scope, key) => {
        ahead.delete(aheadId(scope, key));
        return call('storage.delete', [scope, key]);
      },
    },
    secrets: {
      get: (name) => call('secrets.get', [name]),
      set: (name, value) => call('secrets.set', [name, value]),
    },
    log: (entry) => log(callId, lineOf(entry)),
    checkpoint: () => call('checkpoint', []),
  };
  return { capabilities, takeUsed };
}

define('__platformDeliver', (id, value, slot) => {
  if (id === -3) {
    // An answer the runner delivers on its own thread (its request id in `slot`): what the code
    // that continues posts and logs is held, as in a call's first entry, until it takes it (-2).
    held = setPrototypeOf([], null);
    id = slot;
  }
  if (id === 0) {
    runNowCall = value;
    runNowSlot = slot;
    return;
  }
  if (id === -2) {
    // The entry has ended: what it held goes to the runner (its result among it, as 'done', if
    // the call settled meanwhile).
    const out = held;
    held = undefined;
    return out;
  }
  const request = waiting.get(id);
  if (request === undefined) return;
  waiting.delete(id);
  currentCall = request.owner;
  request.resolve(value);
});

// The runner hands over the bundle's namespace once, then takes `run` and removes both globals.
define('__platformSetBundle', (namespace) => {
  delete g.__platformSetBundle;
  const definition = namespace.default;
  const runGuestCall = namespace.__platformRunGuestCall;
  if (typeof runGuestCall !== 'function') {
    throw new Error(
      'this bundle has no guest engine (built by an older platform-host); install the version again',
    );
  }
  // `deadline`: when the host stops waiting for this call (ms since the epoch), for ctx.remainingMs().
  // `slot`: this call's start flag, or -1 when the runner has none free (then `begin` says the call
  // started). A call the runner enters on its own thread (`runNowCall`) has its slot given with it,
  // and its result goes back through `post` ('done'): a promise cannot cross synchronously.
  define('__platformRun', (callId, requestJson, deadline, slot) => {
    if (runNowCall === undefined || runNowCall !== callId) {
      // Entered through the pool: nothing is held (should an entry on the runner's thread have
      // ended without handing over, its posts are not kept from this call).
      held = undefined;
      if (slot >= 0) atomicsStore(startFlags, slot, 1);
      else begin(callId);
      // Its result crosses as the run's value; the runner checks its length.
      return runGuest(callId, requestJson, deadline);
    }
    runNowCall = undefined;
    if (runNowSlot >= 0) atomicsStore(startFlags, runNowSlot, 1);
    held = setPrototypeOf([], null);
    reflectApply(promiseThen, runGuest(callId, requestJson, deadline), [
      // A result over CROSSING_CHARS is not copied out: its length goes, and the call fails with it.
      (value) =>
        typeof value === 'string' && value.length > CROSSING_CHARS
          ? post('done', 0, callId, value.length, 'size')
          : post('done', 0, callId, value),
      (error) => post('done', 0, callId, String(error?.message ?? error), true),
    ]);
    return undefined;
  });

  // The host's batch of payload checks for this version (deliveries that arrived together): one
  // entry into the isolate for all of them, a verdict each, in order. A check that throws answers
  // for itself alone. The prelude's own op, so bundles built by any platform-host answer it.
  async function parseMany(items, capabilities) {
    const results = [];
    for (let at = 0; at < items.length; at++) {
      const { webhookId, rawBody, contentType } = items[at];
      try {
        const call = { op: 'parseWebhookPayload', webhookId, rawBody };
        if (contentType !== undefined) call.contentType = contentType;
        const verdict = await runGuestCall(definition, call, capabilities);
        // Ingress keeps the raw body: the parsed payload need not travel back.
        results[at] = verdict?.ok === true ? { ok: true } : verdict;
      } catch (error) {
        results[at] = {
          __thrown: { name: String(error?.name ?? 'Error'), message: String(error?.message ?? error) },
        };
      }
    }
    return jsonStringify(results);
  }

  async function runGuest(callId, requestJson, deadline) {
    currentCall = callId;
    try {
      const { preload, ...request } = jsonParse(requestJson);
      if (typeof deadline === 'number' && Number.isFinite(deadline)) request.deadline = deadline;
      const { capabilities, takeUsed } = capabilitiesFor(callId, preload);
      if (request.op === 'parseWebhookPayloads') return await parseMany(request.items, capabilities);
      const result = jsonStringify(await runGuestCall(definition, request, capabilities));
      // Preloaded values used after the call's last request go with its result: "\0<used>\0<result>".
      const usedLast = takeUsed();
      return usedLast === undefined ? result : `\u0000${usedLast}\u0000${result}`;
    } catch (error) {
      // Only `describe` throws (a definition the strict schema refuses); the name tells the host which error.
      return jsonStringify({
        __thrown: { name: String(error?.name ?? 'Error'), message: String(error?.message ?? error) },
      });
    }
  }
});
