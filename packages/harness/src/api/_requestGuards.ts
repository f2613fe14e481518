import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './_errors.js';
import type { HarnessApi } from './_harnessApi.js';

/** The environment variable that lets the harness API answer hosts other than loopback. */
export const EXPOSE_VARIABLE = 'PLATFORM_HARNESS_EXPOSE';

/**
 * Whether a `Host` header names this machine: `localhost`, `127.0.0.0/8` or `[::1]`, any port.
 * @example isLoopbackHost('127.0.0.1:5173') // true
 */
export function isLoopbackHost(host: string): boolean {
  // Userinfo, paths and the like have no place in a Host header; the URL parser would skip them.
  if (host === '' || /[\s/?#@\\]/.test(host)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Refuses requests whose `Host` is not loopback (403) unless `PLATFORM_HARNESS_EXPOSE=1`: the
 * harness holds live credentials and reaches real vendors, and a Host check also stops DNS rebinding.
 */
export function loopbackOnly(api: HarnessApi): MiddlewareHandler {
  return async (c, next) => {
    const host = requestHost(c.req.raw);
    if (api.exposed || isLoopbackHost(host)) return next();
    api.log(
      `[harness] refused ${c.req.method} ${new URL(c.req.url).pathname}: Host "${host}" is not loopback`,
    );
    return errorResponse(
      c,
      403,
      'forbidden',
      `The harness API answers loopback hosts only (localhost, 127.0.0.0/8, [::1]), not "${host}". To serve it on another address, set ${EXPOSE_VARIABLE}=1 (platform dev sets it after a warning when started with a non-loopback --host).`,
    );
  };
}

/**
 * State changes (POST) must come from the harness's own page or from a script: a JSON body (so a
 * foreign page cannot send one without a preflight this server never allows) and, when the browser
 * names an `Origin`, this very host.
 */
export function sameOriginStateChanges(api: HarnessApi): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const host = requestHost(c.req.raw);
    const origin = c.req.header('origin');
    let originHost: string | undefined;
    try {
      originHost = origin === undefined ? undefined : new URL(origin).host;
    } catch {
      originHost = '(unreadable)';
    }
    if (
      (originHost !== undefined && originHost !== host) ||
      (origin === undefined && c.req.header('sec-fetch-site') === 'cross-site')
    ) {
      api.log(
        `[harness] refused POST ${new URL(c.req.url).pathname}: cross-origin request from ${origin ?? 'another site'}`,
      );
      return errorResponse(
        c,
        403,
        'forbidden',
        `Requests from ${origin ?? 'another site'} are not accepted; call the harness API from its own page (${host}) or from a script without an Origin header.`,
      );
    }
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
      return errorResponse(
        c,
        415,
        'unsupported_media_type',
        'Send the body as JSON with Content-Type: application/json.',
      );
    }
    return next();
  };
}

/** The Host header, or the URL's host when a caller built the Request without one. */
export function requestHost(request: Request): string {
  return request.headers.get('host') ?? new URL(request.url).host;
}
