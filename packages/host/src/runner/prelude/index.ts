// The isolate's prelude: web APIs partner code expects, and the glue between the guest engine and
// the runner. It runs first in every new context, before the version's bundle. The runner sets
// `__platformBridge` (isolated-vm Callbacks: only copied primitives cross) and removes it here, so
// partner code never sees it; everything the glue needs is captured before partner code runs.

import { CROSSING_CHARS, requestRefusal } from '../limits.js';
import type { BundleNamespace, Held, IsolateGlobal, Posted, RunCall } from './_isolateGlobals.js';
import { AbortController, AbortSignal, Event, EventTarget } from './abort.js';
import { base64ToBytes } from './bytes.js';
import { capabilitiesFor, type GuestCapabilities } from './capabilities.js';
import { atob, btoa, DOMException, URL, URLSearchParams } from './coreJs.js';
import { TextDecoder, TextEncoder } from './encoding.js';
import { Headers, Request, Response } from './fetchTypes.js';
import { lineOf } from './logLine.js';
import { withoutPostedTasks } from './postedTasks.js';
import { structuredClone } from './structuredClone.js';
import { CryptoKey, createSubtle } from './subtle.js';
import { createTimers } from './timers.js';

const g = globalThis as IsolateGlobal;
const bridge = g.__platformBridge!;
delete g.__platformBridge;
const { post: postToRunner, log: logToRunner, randomBytes, subtle: subtleBridge, begin, flags } = bridge;
const jsonParse: (text: string) => unknown = JSON.parse;
const jsonStringify: (value: unknown) => string = JSON.stringify;
const setPrototypeOf: <T>(value: T, prototype: null) => T = Object.setPrototypeOf;
const heldArray = (): Held => setPrototypeOf<Held>([], null);
// While the runner's synchronous entry into a call lasts, what the isolate posts and logs is held
// here, seven slots each (0 and post's arguments, or 1, call id and line), and handed over in order
// when it ends: no message wakes the runner's thread for it, and nothing of a stopped entry leaves.
// An array without a prototype, written by index: no setter or `push` partner code puts on
// Array.prototype ever sees it (and adds to what is copied out).
let held: Held | undefined;
const hold = (a: Posted, b: Posted, c: Posted, d: Posted, e: Posted, f: Posted, h: Posted): void => {
  if (held === undefined) return;
  let at = held.length;
  held[at++] = a;
  held[at++] = b;
  held[at++] = c;
  held[at++] = d;
  held[at++] = e;
  held[at++] = f;
  held[at] = h;
};
type PostKind = 'cap' | 'sleep' | 'done';
const post = (kind: PostKind, id: number, a: Posted, b: Posted, c?: Posted, d?: Posted): void => {
  if (held === undefined) postToRunner(kind, id, a, b, c, d);
  else hold(0, kind, id, a, b, c, d);
};
// Every line is a fresh string made here (JSON text of its entry, see lineOf), so what is held is
// at most what the isolate's memory holds.
const log = (callId: string, line: string | undefined): void => {
  if (held === undefined) logToRunner(callId, line);
  else hold(1, callId, line, undefined, undefined, undefined, undefined);
};
// Taken now: partner code may replace the globals, and these touch the runner's shared memory.
const atomicsStore = Atomics.store;
const Int32ArrayOf = Int32Array;
const promiseThen = Promise.prototype.then;
const reflectApply = Reflect.apply;
// The call the runner enters next on its own thread (applySync) and its start flag: said through
// `__platformDeliver`, which only the runner holds, so it holds even where a bundle wraps `__platformRun`.
let runNowCall: string | undefined;
let runNowSlot: number | undefined = -1;

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
const waiting = new Map<
  number,
  { resolve: (value: string | undefined) => void; owner: string | undefined }
>();
let nextRequest = 1;
let currentCall: string | undefined;
function request(
  kind: 'cap' | 'sleep',
  owner: string | undefined,
  a: Posted,
  b: Posted,
  c?: Posted,
  d?: Posted,
): Promise<string | undefined> {
  const id = nextRequest++;
  const size = (typeof c === 'string' ? c.length : 0) + (typeof d === 'string' ? d.length : 0);
  // Refused here, as the runner would: the handler gets an error it can catch.
  if (kind === 'cap' && size > CROSSING_CHARS) {
    const refusal = requestRefusal(String(b), size, jsonStringify);
    return new Promise((resolve) => resolve(refusal));
  }
  return new Promise<string | undefined>((resolve) => {
    waiting.set(id, { resolve, owner });
    post(kind, id, a, b, c, d);
  });
}
// A capability call names its call; a timer belongs to the call whose code set it. `used`: the
// preloaded storage values the call used since its last request (JSON text), or undefined.
const hostCall = (callId: string, method: string, args: string, used: string | undefined) =>
  request('cap', callId, callId, method, args, used);
const sleep = (ms: number) => request('sleep', currentCall, ms, currentCall);

function define(name: string, value: unknown): void {
  Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
}

const {
  setTimeout: setTimeoutShim,
  clearTimeout: clearTimeoutShim,
  setInterval: setIntervalShim,
} = createTimers(sleep);

const crypto = {
  getRandomValues<T extends ArrayBufferView>(array: T): T {
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
  get subtle(): ReturnType<typeof createSubtle> {
    return subtle;
  },
  randomUUID(): string {
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  },
};

const subtle = createSubtle(subtleBridge, (array) => crypto.getRandomValues(array));

// console goes to the logger of the call whose code is running: the one that started it, or whose
// request (capability call, timer) was answered last.
const format = (args: unknown[]): string =>
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
  (level: string) =>
  (...args: unknown[]): void => {
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
  queueMicrotask: (callback: () => void) => {
    Promise.resolve().then(() => callback());
  },
})) {
  define(name, value);
}
define('self', g);

const capabilitiesOf = (callId: string, preload: unknown) =>
  capabilitiesFor(callId, preload, hostCall, (id, entry) => log(id, lineOf(entry)));

define('__platformDeliver', (id: number, value?: string, slot?: number): Held | undefined => {
  if (id === -3) {
    // An answer the runner delivers on its own thread (its request id in `slot`): what the code
    // that continues posts and logs is held, as in a call's first entry, until it takes it (-2).
    held = heldArray();
    id = slot as number;
  }
  if (id === 0) {
    runNowCall = value;
    runNowSlot = slot;
    return undefined;
  }
  if (id === -2) {
    // The entry has ended: what it held goes to the runner (its result among it, as 'done', if
    // the call settled meanwhile).
    const out = held;
    held = undefined;
    return out;
  }
  const request = waiting.get(id);
  if (request === undefined) return undefined;
  waiting.delete(id);
  currentCall = request.owner;
  request.resolve(value);
  return undefined;
});

/** A guest call as the host sends it (JSON): the sdk's GuestCall, opaque here but for its op. */
interface GuestRequest {
  readonly op?: unknown;
  readonly items?: unknown;
  deadline?: number;
  [field: string]: unknown;
}
/** One payload check of a `parseWebhookPayloads` batch. */
interface PayloadItem {
  readonly webhookId: unknown;
  readonly rawBody: unknown;
  readonly contentType?: unknown;
}
/** The bundle's guest engine (the sdk's runGuestCall), as the bundle exports it. */
type RunGuestCall = (
  definition: unknown,
  call: GuestRequest,
  capabilities: GuestCapabilities,
) => Promise<unknown>;

// What a throw in partner code answers with: its name and message, never the value itself.
const thrownOf = (error: unknown) => {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return { __thrown: { name: String(name ?? 'Error'), message: String(message ?? error) } };
};

// The runner hands over the bundle's namespace once, then takes `run` and removes both globals.
define('__platformSetBundle', (namespace: BundleNamespace): void => {
  delete g.__platformSetBundle;
  const definition = namespace.default;
  const exported = namespace.__platformRunGuestCall;
  if (typeof exported !== 'function') {
    throw new Error(
      'this bundle has no guest engine (built by an older platform-host); install the version again',
    );
  }
  const runGuestCall = exported as RunGuestCall;
  // `deadline`: when the host stops waiting for this call (ms since the epoch), for ctx.remainingMs().
  // `slot`: this call's start flag, or -1 when the runner has none free (then `begin` says the call
  // started). A call the runner enters on its own thread (`runNowCall`) has its slot given with it,
  // and its result goes back through `post` ('done'): a promise cannot cross synchronously.
  const run: RunCall = (callId, requestJson, deadline, slot) => {
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
    if (runNowSlot !== undefined && runNowSlot >= 0) atomicsStore(startFlags, runNowSlot, 1);
    held = heldArray();
    reflectApply(promiseThen, runGuest(callId, requestJson, deadline), [
      // A result over CROSSING_CHARS is not copied out: its length goes, and the call fails with it.
      (value: string) =>
        typeof value === 'string' && value.length > CROSSING_CHARS
          ? post('done', 0, callId, value.length, 'size')
          : post('done', 0, callId, value),
      (error: { message?: unknown } | undefined) =>
        post('done', 0, callId, String(error?.message ?? error), true),
    ]);
    return undefined;
  };
  define('__platformRun', run);

  // The host's batch of payload checks for this version (deliveries that arrived together): one
  // entry into the isolate for all of them, a verdict each, in order. A check that throws answers
  // for itself alone. The prelude's own op, so bundles built by any platform-host answer it.
  async function parseMany(items: readonly PayloadItem[], capabilities: GuestCapabilities): Promise<string> {
    const results: unknown[] = [];
    for (let at = 0; at < items.length; at++) {
      const { webhookId, rawBody, contentType } = items[at]!;
      try {
        const call: GuestRequest = { op: 'parseWebhookPayload', webhookId, rawBody };
        if (contentType !== undefined) call.contentType = contentType;
        const verdict = await runGuestCall(definition, call, capabilities);
        // Ingress keeps the raw body: the parsed payload need not travel back.
        results[at] = (verdict as { ok?: unknown } | undefined)?.ok === true ? { ok: true } : verdict;
      } catch (error: unknown) {
        results[at] = thrownOf(error);
      }
    }
    return jsonStringify(results);
  }

  async function runGuest(
    callId: string,
    requestJson: string,
    deadline: number | undefined,
  ): Promise<string> {
    currentCall = callId;
    try {
      const { preload, ...request } = jsonParse(requestJson) as GuestRequest & { preload?: unknown };
      if (typeof deadline === 'number' && Number.isFinite(deadline)) request.deadline = deadline;
      const { capabilities, takeUsed } = capabilitiesOf(callId, preload);
      if (request.op === 'parseWebhookPayloads')
        return await parseMany(request.items as PayloadItem[], capabilities);
      const result = jsonStringify(await runGuestCall(definition, request, capabilities));
      // Preloaded values used after the call's last request go with its result: "\0<used>\0<result>".
      const usedLast = takeUsed();
      return usedLast === undefined ? result : `\u0000${usedLast}\u0000${result}`;
    } catch (error) {
      // Only `describe` throws (a definition the strict schema refuses); the name tells the host which error.
      return jsonStringify(thrownOf(error));
    }
  }
});
