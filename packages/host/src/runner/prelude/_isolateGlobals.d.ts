// What the prelude finds on a new isolate's global object beyond ECMAScript (tsconfig.json has no
// DOM and no Node types): the runner's bridge, set by `preparedEntry` in ../_isolatePool.ts and
// removed by index.ts before partner code runs; the hand-over functions the prelude defines for the
// runner and the bundle; V8's WebAssembly and Atomics.waitAsync, which the prelude takes away; and
// the web APIs the prelude defines itself and that its other modules read back as globals when
// they run (so they are the prelude's own classes unless partner code replaced them).
import type URLType from 'core-js-pure/actual/url/index.js';
import type URLSearchParamsType from 'core-js-pure/actual/url-search-params/index.js';
import type { AbortController as AbortControllerType } from './abort.js';
import type { TextDecoder as TextDecoderType, TextEncoder as TextEncoderType } from './encoding.js';
import type { Timers } from './timers.js';

/** A value the isolate passes to the runner: isolated-vm's Callbacks copy primitives only. */
export type Posted = string | number | boolean | undefined;

/** The runner's isolated-vm Callbacks, as `preparedEntry` sets them on `globalThis.__platformBridge`. */
export interface PlatformBridge {
  /** Asynchronous requests and a settled call's result: 'cap' (call id, method, arguments JSON,
   * used keys JSON), 'sleep' (ms, call id), 'done' (call id, result, or its length and 'size', or a
   * message and true). */
  readonly post: (
    kind: 'cap' | 'sleep' | 'done',
    id: number,
    a: Posted,
    b: Posted,
    c?: Posted,
    d?: Posted,
  ) => void;
  /** One log line (JSON text of its entry) of a call. */
  readonly log: (callId: string, line: string | undefined) => void;
  /** Synchronous: that many random bytes (at most 65536) as base64. */
  readonly randomBytes: (byteLength: number) => string;
  /** Synchronous: node:crypto's digest or HMAC of base64 data, as base64. */
  readonly subtle: (op: 'digest' | 'hmac', hash: string, keyBase64: string, dataBase64: string) => string;
  /** A call with no start flag has started. */
  readonly begin: (callId: string) => void;
  /** The start flags (shared with the runner, an Int32Array's buffer). */
  readonly flags: SharedArrayBuffer;
}

/** What an entry on the runner's thread posted and logged, seven slots each, in order. */
export type Held = Posted[];

/** `__platformDeliver`: answers (id > 0), the next call entered on the thread (0), the held hand-over (-2), an answer on the thread (-3). */
export type Deliver = (id: number, value?: string, slot?: number) => Held | undefined;

/** `__platformRun`: one call; its JSON result, or undefined for a call entered on the runner's thread. */
export type RunCall = (
  callId: string,
  requestJson: string,
  deadline: number | undefined,
  slot: number,
) => Promise<string> | undefined;

/** The exports of a version's bundle, handed over by toIsolateScript's script: partner code's. */
export type BundleNamespace = Readonly<Record<string, unknown>>;

interface WebAssemblyModule {
  readonly [Symbol.toStringTag]: string;
}
interface WebAssemblyInstance {
  readonly exports: object;
}
type WebAssemblySource = ArrayBuffer | ArrayBufferView;
/** V8's WebAssembly namespace, as far as the prelude replaces it (postedTasks.ts). */
export interface WebAssemblyNamespace {
  Module: new (bytes: WebAssemblySource) => WebAssemblyModule;
  Instance: new (module: WebAssemblyModule, imports?: object) => WebAssemblyInstance;
  compile(bytes: WebAssemblySource): Promise<WebAssemblyModule>;
  instantiate(source: WebAssemblySource | WebAssemblyModule, imports?: object): Promise<unknown>;
  compileStreaming?: unknown;
  instantiateStreaming?: unknown;
}

/** The isolate's global object as the prelude sees it: the hand-over properties come and go. */
export type IsolateGlobal = typeof globalThis & {
  /** Set by the runner before the prelude runs; index.ts takes it and deletes it. */
  __platformBridge?: PlatformBridge;
  /** Defined by index.ts; the prelude script's value takes it off again (buildGuestPrelude). */
  __platformDeliver?: Deliver;
  /** Defined by index.ts; the bundle's script calls it once and it deletes itself. */
  __platformSetBundle?: (namespace: BundleNamespace) => void;
  /** Defined by __platformSetBundle; the bundle's script takes it off again (toIsolateScript). */
  __platformRun?: RunCall;
  WebAssembly?: WebAssemblyNamespace;
};

declare global {
  interface Atomics {
    /** V8's; its timed form posts a task isolated-vm cannot run, so the prelude deletes it. */
    waitAsync?: unknown;
  }
  var URL: typeof URLType;
  var URLSearchParams: typeof URLSearchParamsType;
  var TextEncoder: typeof TextEncoderType;
  var TextDecoder: typeof TextDecoderType;
  var AbortController: typeof AbortControllerType;
  var setTimeout: Timers['setTimeout'];
}
