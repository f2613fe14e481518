import { base64ToBytes, bytesToBase64 } from './_base64.js';
import { type Capabilities, type CapabilityFetchResponse, capabilityHeader } from './capabilities.js';
import { checkEgressUrl } from './checkEgressUrl.js';
import { redactUrl } from './redact.js';

export interface GuestFetchOptions {
  readonly egress: readonly string[];
  readonly capabilities: Capabilities;
  /** Redirect hops followed before giving up. Default 5. */
  readonly maxRedirects?: number;
  /** Sent as `User-Agent` when a request sets none (vendors such as GitHub refuse requests without one). */
  readonly userAgent?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/**
 * The `ctx.fetch` partner code calls: checks the URL and every redirect target against egress,
 * then sends each hop through the `fetch` capability (which enforces egress again, host side),
 * with `userAgent` as `User-Agent` unless the request has its own.
 * @example const fetch = createGuestFetch({ egress: ['https://api.acme.com'], capabilities, userAgent: 'platform-integration/acme-notes' });
 */
export function createGuestFetch(options: GuestFetchOptions) {
  const maxRedirects = options.maxRedirects ?? 5;

  return async function guestFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    checkEgressUrl(input instanceof Request ? input.url : input, options.egress, { caller: 'ctx.fetch' });
    const request = new Request(input, init);
    const redirectMode = request.redirect;
    const signal = request.signal;
    // The fragment is the client's alone: fetch never sends it.
    let url = withoutFragment(request.url);
    let method = request.method;
    let headers: (readonly [string, string])[] = [...request.headers];
    if (options.userAgent !== undefined && !request.headers.has('user-agent')) {
      headers.push(['user-agent', options.userAgent]);
    }
    let body: string | null =
      request.body === null ? null : bytesToBase64(new Uint8Array(await request.arrayBuffer()));

    for (let hop = 0; ; hop++) {
      // A hop in flight cannot be cancelled across the capability boundary; an abort is honoured
      // before each hop and before the response is handed back.
      signal.throwIfAborted();
      const started = Date.now();
      const response = await options.capabilities.fetch({ url, method, headers, body });
      signal.throwIfAborted();
      options.capabilities.log({
        level: 'debug',
        message: `fetch ${method} ${redactUrl(url)} -> ${response.status} (${Date.now() - started} ms)`,
      });
      const location = capabilityHeader(response, 'location');
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined || redirectMode === 'manual') {
        return toResponse(response, url, hop > 0);
      }
      if (redirectMode === 'error') {
        throw new TypeError(`fetch ${redactUrl(url)} was redirected and redirect is "error"`);
      }
      if (hop >= maxRedirects) {
        throw new TypeError(`fetch ${redactUrl(request.url)} followed more than ${maxRedirects} redirects`);
      }
      const next = new URL(location, url);
      checkEgressUrl(next, options.egress, { caller: 'ctx.fetch', redirect: true, egressReason: 'redirect' });
      // As browsers do: 303, and 301/302 after POST, continue as GET without a body.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        if (method !== 'HEAD') method = 'GET';
        body = null;
        headers = headers.filter(([name]) => !/^content-(type|length)$/i.test(name));
      }
      if (new URL(url).origin !== next.origin) {
        // Credentials are for the origin they were written for, never for the one a redirect names.
        headers = headers.filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()));
      }
      url = withoutFragment(next.href);
    }
  };
}

function toResponse(data: CapabilityFetchResponse, url: string, redirected: boolean): Response {
  const body = NULL_BODY_STATUSES.has(data.status) ? null : base64ToBytes(data.body);
  const response = new Response(body, {
    status: data.status,
    statusText: data.statusText,
    headers: data.headers.map(([key, value]) => [key, value] as [string, string]),
  });
  Object.defineProperty(response, 'url', { value: url });
  Object.defineProperty(response, 'redirected', { value: redirected });
  return response;
}
