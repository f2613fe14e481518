import { redactUrl } from '../../runtime/redact.js';
import { paginate } from './_paginate.js';
import { redactBody } from './_redactBody.js';
import {
  backoffMs,
  DEFAULT_RETRY,
  GATEWAY_STATUSES,
  IDEMPOTENT_METHODS,
  isNetworkError,
  type RetryPolicy,
  retryAfterMs,
  retryPolicy,
} from './_retry.js';
import type {
  VendorClient,
  VendorClientContext,
  VendorClientOptions,
  VendorQuery,
  VendorRequestOptions,
} from './types.js';
import { VendorHttpError } from './VendorHttpError.js';

/** Time and chance, replaceable in tests: waits are real `setTimeout`s (bridged in an isolate). */
export interface VendorClientEnv {
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  readonly random: () => number;
}

export const REAL_ENV: VendorClientEnv = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
  random: () => Math.random(),
};

/** {@link createVendorClient} with its clock, sleep and randomness given. */
export function buildVendorClient(
  ctx: VendorClientContext,
  options: VendorClientOptions,
  env: VendorClientEnv,
): VendorClient {
  const name = checkName(options.name);
  const base = checkBaseUrl(name, options.baseUrl);
  const defaults = { ...(options.headers ?? {}) };
  const clientRetry = retryPolicy(name, DEFAULT_RETRY, options.retry);

  function resolve(path: string, query: VendorQuery | undefined): URL {
    if (typeof path !== 'string') throw new TypeError(`${name}: a request path must be a string`);
    const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
    const url = new URL(absolute ? path : `${base.href.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
    if (url.origin !== base.origin) {
      // The client's headers often carry credentials: they go to the vendor's origin only.
      throw new TypeError(
        `${name}: ${redactUrl(url)} is not on ${base.origin}; call ctx.fetch for other origins`,
      );
    }
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    return url;
  }

  function log(message: string): void {
    ctx.logger?.warn(message);
  }

  function remainingMs(): number {
    return typeof ctx.remainingMs === 'function' ? ctx.remainingMs() : Number.POSITIVE_INFINITY;
  }

  async function send(
    method: string,
    url: URL,
    options: VendorRequestOptions,
    accept: string | undefined,
  ): Promise<Response> {
    const headers = new Headers(defaults);
    for (const [key, value] of Object.entries(options.headers ?? {})) headers.set(key, value);
    if (accept !== undefined && !headers.has('accept')) headers.set('accept', accept);
    const body = bodyOf(name, options, headers);
    const policy =
      options.retry === false
        ? { ...clientRetry, maxAttempts: 1 }
        : retryPolicy(name, clientRetry, options.retry);
    const idempotent = options.idempotent ?? IDEMPOTENT_METHODS.has(method);
    const shown = `${method} ${redactUrl(url)}`;
    const init: RequestInit = { method, headers, ...(body === undefined ? {} : { body }) };
    // Built once up front: a request fetch cannot even form (a GET with a body, a bad header)
    // throws its TypeError here, where it is not mistaken for a network failure and retried.
    new Request(url.href, init);

    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await ctx.fetch(url.href, init);
      } catch (error) {
        // Refusals (egress, a missing fixture) and aborts are not the network's: thrown at once.
        if (!isNetworkError(error) || !idempotent) throw error;
        const wait = waitFor(policy, attempt, undefined, `${shown} failed`);
        if (wait === undefined) throw error;
        log(
          `${name}: ${shown} failed (${(error as Error).message}); try ${attempt + 1} of ${policy.maxAttempts} in ${wait} ms`,
        );
        await env.sleep(wait);
        continue;
      }
      if (response.ok) return response;
      const retryable = response.status === 429 || (idempotent && GATEWAY_STATUSES.has(response.status));
      const wait = retryable
        ? waitFor(
            policy,
            attempt,
            retryAfterMs(response.headers.get('retry-after'), env.now()),
            `${name} answered ${response.status} to ${shown}`,
          )
        : undefined;
      if (wait === undefined) throw await vendorError(method, url, response, attempt);
      log(
        `${name} answered ${response.status} to ${shown}; try ${attempt + 1} of ${policy.maxAttempts} in ${wait} ms`,
      );
      await env.sleep(wait);
    }
  }

  // The wait before the next try, or undefined when there is none: out of tries, the vendor asks
  // for longer than `maxDelayMs`, or the wait would not leave `budgetMarginMs` of the call's budget
  // (both logged: the error thrown next does not say why it was not retried).
  function waitFor(
    policy: RetryPolicy,
    attempt: number,
    retryAfter: number | undefined,
    what: string,
  ): number | undefined {
    if (attempt >= policy.maxAttempts) return undefined;
    const wait = retryAfter ?? backoffMs(policy, attempt, env.random);
    if (wait > policy.maxDelayMs) {
      log(`${what}; not retried: it asks for a ${wait} ms wait, more than maxDelayMs (${policy.maxDelayMs})`);
      return undefined;
    }
    const left = remainingMs();
    if (wait + policy.budgetMarginMs > left) {
      log(`${what}; not retried: a ${wait} ms wait does not fit the ${Math.floor(left)} ms left of the call`);
      return undefined;
    }
    return wait;
  }

  async function vendorError(method: string, url: URL, response: Response, attempts: number) {
    let text = '';
    try {
      text = await response.text();
    } catch {
      // A body that cannot be read leaves the message without it.
    }
    return new VendorHttpError({
      vendor: name,
      method,
      url: url.href,
      status: response.status,
      statusText: response.statusText,
      body: text,
      attempts,
    });
  }

  async function readJson(method: string, url: URL, response: Response): Promise<unknown> {
    const text = await response.text();
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(
        `${name} answered ${response.status} to ${method} ${redactUrl(url)} with a body that is not JSON (${redactBody(text, 200)}); read it with request() instead`,
      );
    }
  }

  const client: VendorClient = {
    name,
    baseUrl: base.href,
    async request(method, path, options = {}) {
      const verb = checkMethod(name, method);
      return send(verb, resolve(path, options.query), options, undefined);
    },
    async json<T>(method: string, path: string, options: VendorRequestOptions = {}) {
      const verb = checkMethod(name, method);
      const url = resolve(path, options.query);
      const response = await send(verb, url, options, 'application/json');
      return (await readJson(verb, url, response)) as T;
    },
    paginate(path, options) {
      return paginate(name, path, options, {
        resolve,
        async get(url, headers) {
          const response = await send(
            'GET',
            url,
            headers === undefined ? {} : { headers },
            'application/json',
          );
          return { response, url: url.href, body: await readJson('GET', url, response) };
        },
      });
    },
  };
  return Object.freeze(client);
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new TypeError(
      "createVendorClient: name must be the vendor's name for errors and logs, e.g. { name: 'GitHub' }",
    );
  }
  return name;
}

function checkBaseUrl(name: string, baseUrl: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new TypeError(
      `createVendorClient(${name}): baseUrl must be an absolute http(s) URL such as 'https://api.acme.com/v1'; got ${JSON.stringify(redactUrl(String(baseUrl)))}`,
    );
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError(
      `createVendorClient(${name}): baseUrl takes no query, fragment or credentials; pass query per request and credentials in headers`,
    );
  }
  return url;
}

function checkMethod(name: string, method: unknown): string {
  if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method)) {
    throw new TypeError(`${name}: the method must be an HTTP method such as 'GET'; got ${String(method)}`);
  }
  return method.toUpperCase();
}

function bodyOf(name: string, options: VendorRequestOptions, headers: Headers): BodyInit | undefined {
  if (options.json !== undefined && options.body !== undefined) {
    throw new TypeError(`${name}: pass json or body, not both`);
  }
  if (options.json !== undefined) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return JSON.stringify(options.json);
  }
  if (options.body instanceof URLSearchParams) {
    if (!headers.has('content-type')) {
      headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    }
    return options.body.toString();
  }
  return options.body as BodyInit | undefined;
}
