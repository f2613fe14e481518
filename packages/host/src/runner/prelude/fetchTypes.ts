// Headers, Request and Response over byte arrays: what ctx.fetch builds and returns. Bodies are
// whole (ctx.fetch hands over complete bodies as base64), so there are no streams.

import { copyBytes } from './bytes.js';

const encoder = () => new TextEncoder();
const decoder = () => new TextDecoder();

// Kept our own: headers-polyfill 5.0.1 silently ignores invalid names and non-string or padded
// values in set/append (Node throws or normalises) and orders names with localeCompare.
export class Headers {
  // lower-case name -> its values in order (joined with ", " except for set-cookie, as in fetch)
  #map = new Map();
  constructor(init) {
    if (init instanceof Headers) {
      for (const [name, value] of init) this.append(name, value);
    } else if (init != null && typeof init[Symbol.iterator] === 'function') {
      for (const pair of init) {
        const entry = [...pair];
        if (entry.length !== 2) throw new TypeError('Headers: each header pair needs a name and a value');
        this.append(entry[0], entry[1]);
      }
    } else if (init != null && typeof init === 'object') {
      for (const name of Object.keys(init)) this.append(name, init[name]);
    } else if (init !== undefined) {
      throw new TypeError('Headers: init must be an object or a sequence of pairs');
    }
  }
  #name(name) {
    const lower = String(name).toLowerCase();
    if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(lower)) throw new TypeError(`Invalid header name "${name}"`);
    return lower;
  }
  #value(value) {
    const text = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    if (/[\0\r\n]/.test(text)) throw new TypeError(`Invalid header value "${text}"`);
    return text;
  }
  append(name, value) {
    const key = this.#name(name);
    const text = this.#value(value);
    const current = this.#map.get(key);
    if (current === undefined) this.#map.set(key, [text]);
    else current.push(text);
  }
  set(name, value) {
    this.#map.set(this.#name(name), [this.#value(value)]);
  }
  get(name) {
    return this.#map.get(this.#name(name))?.join(', ') ?? null;
  }
  getSetCookie() {
    return [...(this.#map.get('set-cookie') ?? [])];
  }
  has(name) {
    return this.#map.has(this.#name(name));
  }
  delete(name) {
    this.#map.delete(this.#name(name));
  }
  forEach(callback, thisArg) {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }
  *entries() {
    const names = [...this.#map.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const values = this.#map.get(name);
      if (values === undefined) continue;
      if (name === 'set-cookie') for (const value of values) yield [name, value];
      else yield [name, values.join(', ')];
    }
  }
  *keys() {
    for (const [name] of this.entries()) yield name;
  }
  *values() {
    for (const [, value] of this.entries()) yield value;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  get [Symbol.toStringTag]() {
    return 'Headers';
  }
}

function toBytes(body, headers) {
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
  #bytes;
  #used = false;
  constructor(bytes) {
    this.#bytes = bytes;
  }
  get body() {
    return this.#bytes;
  }
  get bodyUsed() {
    return this.#used;
  }
  #take() {
    if (this.#used) return Promise.reject(new TypeError('Body has already been consumed'));
    this.#used = true;
    return Promise.resolve(this.#bytes ?? new Uint8Array(0));
  }
  async arrayBuffer() {
    const bytes = await this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
  async bytes() {
    return new Uint8Array(await this.arrayBuffer());
  }
  async text() {
    return decoder().decode(await this.#take());
  }
  async json() {
    return JSON.parse(await this.text());
  }
  _cloneBytes() {
    if (this.#used) throw new TypeError('Body has already been consumed');
    return this.#bytes === null ? null : this.#bytes.slice();
  }
}

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];

export class Request extends Body {
  constructor(input, init = {}) {
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
  clone() {
    return new Request(this);
  }
}

export class Response extends Body {
  constructor(body = null, init = {}) {
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
  get ok() {
    return this.status >= 200 && this.status < 300;
  }
  clone() {
    const copy = new Response(this._cloneBytes(), this);
    Object.defineProperty(copy, 'url', { value: this.url });
    Object.defineProperty(copy, 'redirected', { value: this.redirected });
    return copy;
  }
  static json(data, init = {}) {
    const headers = new Headers(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new Response(JSON.stringify(data), { ...init, headers });
  }
}
