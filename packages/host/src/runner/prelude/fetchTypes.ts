// Headers, Request and Response over byte arrays: what ctx.fetch builds and returns. Bodies are
// whole (ctx.fetch hands over complete bodies as base64), so there are no streams.

import type { AbortSignal } from './abort.js';
import { copyBytes } from './bytes.js';

// TextEncoder, TextDecoder, URL, URLSearchParams and AbortController: the globals index.ts defines.

const encoder = () => new TextEncoder();
const decoder = () => new TextDecoder();

// Kept our own: headers-polyfill 5.0.1 silently ignores invalid names and non-string or padded
// values in set/append (Node throws or normalises) and orders names with localeCompare.
export class Headers {
  // lower-case name -> its values in order (joined with ", " except for set-cookie, as in fetch)
  #map = new Map<string, string[]>();
  // Another Headers, pairs or a record, checked as it is read (partner code passes anything).
  constructor(init?: unknown) {
    if (init instanceof Headers) {
      for (const [name, value] of init) this.append(name, value);
    } else if (init != null && isIterable(init)) {
      for (const pair of init) {
        const entry = [...pair];
        if (entry.length !== 2) throw new TypeError('Headers: each header pair needs a name and a value');
        this.append(entry[0], entry[1]);
      }
    } else if (init != null && typeof init === 'object') {
      const record = init as Readonly<Record<string, unknown>>;
      for (const name of Object.keys(record)) this.append(name, record[name]);
    } else if (init !== undefined) {
      throw new TypeError('Headers: init must be an object or a sequence of pairs');
    }
  }
  #name(name: unknown): string {
    const lower = String(name).toLowerCase();
    if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(lower)) throw new TypeError(`Invalid header name "${name}"`);
    return lower;
  }
  #value(value: unknown): string {
    const text = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    if (/[\0\r\n]/.test(text)) throw new TypeError(`Invalid header value "${text}"`);
    return text;
  }
  append(name: unknown, value: unknown): void {
    const key = this.#name(name);
    const text = this.#value(value);
    const current = this.#map.get(key);
    if (current === undefined) this.#map.set(key, [text]);
    else current.push(text);
  }
  set(name: unknown, value: unknown): void {
    this.#map.set(this.#name(name), [this.#value(value)]);
  }
  get(name: unknown): string | null {
    return this.#map.get(this.#name(name))?.join(', ') ?? null;
  }
  getSetCookie(): string[] {
    return [...(this.#map.get('set-cookie') ?? [])];
  }
  has(name: unknown): boolean {
    return this.#map.has(this.#name(name));
  }
  delete(name: unknown): void {
    this.#map.delete(this.#name(name));
  }
  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }
  *entries(): IterableIterator<[string, string]> {
    const names = [...this.#map.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const values = this.#map.get(name);
      if (values === undefined) continue;
      if (name === 'set-cookie') for (const value of values) yield [name, value];
      else yield [name, values.join(', ')];
    }
  }
  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }
  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

function isIterable(value: unknown): value is Iterable<Iterable<unknown>> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

function toBytes(body: unknown, headers: Headers): Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    return encoder().encode(body);
  }
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) {
      headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    }
    return encoder().encode(body.toString());
  }
  const bytes = copyBytes(body);
  if (bytes !== undefined) return bytes;
  throw new TypeError(
    'This body type is not supported in the isolate: pass a string, bytes or URLSearchParams',
  );
}

class Body {
  #bytes: Uint8Array | null;
  #used = false;
  constructor(bytes: Uint8Array | null) {
    this.#bytes = bytes;
  }
  get body(): Uint8Array | null {
    return this.#bytes;
  }
  get bodyUsed(): boolean {
    return this.#used;
  }
  #take(): Promise<Uint8Array> {
    if (this.#used) return Promise.reject(new TypeError('Body has already been consumed'));
    this.#used = true;
    return Promise.resolve(this.#bytes ?? new Uint8Array(0));
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#take();
    // The body's bytes are its own copy (toBytes), over an ArrayBuffer, never shared memory.
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }
  async text(): Promise<string> {
    return decoder().decode(await this.#take());
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  _cloneBytes(): Uint8Array | null {
    if (this.#used) throw new TypeError('Body has already been consumed');
    return this.#bytes === null ? null : this.#bytes.slice();
  }
}

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];

/** A Request's init, as partner code passes it (any body toBytes takes). */
export interface RequestInit {
  readonly method?: unknown;
  readonly headers?: unknown;
  readonly body?: unknown;
  readonly redirect?: string;
  readonly signal?: AbortSignal;
  readonly credentials?: string;
}

export class Request extends Body {
  url: string;
  method: string;
  headers: Headers;
  redirect: string;
  signal: AbortSignal;
  credentials: string;
  constructor(input: unknown, init: RequestInit = {}) {
    const from = input instanceof Request ? input : undefined;
    const headers = new Headers(init.headers ?? from?.headers);
    const method = String(init.method ?? from?.method ?? 'GET');
    const normalized = METHODS.includes(method.toUpperCase()) ? method.toUpperCase() : method;
    const rawBody = init.body !== undefined ? init.body : from?._cloneBytes();
    if (rawBody != null && (normalized === 'GET' || normalized === 'HEAD')) {
      throw new TypeError('Request with GET/HEAD method cannot have body.');
    }
    super(toBytes(rawBody, headers));
    this.url = new URL(from ? from.url : String(input)).href;
    this.method = normalized;
    this.headers = headers;
    this.redirect = init.redirect ?? from?.redirect ?? 'follow';
    this.signal = init.signal ?? from?.signal ?? new AbortController().signal;
    this.credentials = init.credentials ?? 'same-origin';
  }
  clone(): Request {
    return new Request(this);
  }
}

/** A Response's init (another Response serves as one: clone). */
export interface ResponseInit {
  readonly status?: number;
  readonly statusText?: unknown;
  readonly headers?: unknown;
}

export class Response extends Body {
  status: number;
  statusText: string;
  headers: Headers;
  url: string;
  redirected: boolean;
  type: string;
  constructor(body: unknown = null, init: ResponseInit = {}) {
    const headers = new Headers(init.headers);
    super(toBytes(body, headers));
    const status = init.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`Response status must be an integer from 200 to 599, received ${status}`);
    }
    this.status = status;
    this.statusText = String(init.statusText ?? '');
    this.headers = headers;
    this.url = '';
    this.redirected = false;
    this.type = 'default';
  }
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
  clone(): Response {
    const copy = new Response(this._cloneBytes(), this);
    Object.defineProperty(copy, 'url', { value: this.url });
    Object.defineProperty(copy, 'redirected', { value: this.redirected });
    return copy;
  }
  static json(data: unknown, init: ResponseInit = {}): Response {
    const headers = new Headers(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new Response(JSON.stringify(data), { ...init, headers });
  }
}
