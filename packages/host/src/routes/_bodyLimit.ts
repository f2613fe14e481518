import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as streamingBodyLimit } from 'hono/body-limit';

/**
 * A request body size limit for every route that takes one: hono's `bodyLimit` rule without its
 * cost on the common path. hono's reads `c.req.raw.body`, which makes @hono/node-server build a
 * full web Request and stream the body through web streams (a fifth of the actions route's CPU).
 * With a Content-Length and no Transfer-Encoding the declared length is the whole check (the HTTP
 * parser delivers no more), as in hono's, and the handler then reads the body on the server's
 * direct path; without one, hono's counts the bytes as they stream.
 * @example app.post('/x', bodyLimit({ maxSize: 1024, onError: (c) => c.text('too large', 413) }), handler);
 */
export function bodyLimit(options: {
  readonly maxSize: number;
  readonly onError: (c: Context) => Response | Promise<Response>;
}): MiddlewareHandler {
  const streaming = streamingBodyLimit(options);
  return async (c, next) => {
    const declared = declaredBodySize(c);
    if (declared === undefined) return streaming(c, next);
    if (declared > options.maxSize) return options.onError(c);
    await next();
  };
}

/**
 * The body's size as the request declares it: its Content-Length when there is one and no
 * Transfer-Encoding (then the HTTP parser delivers no more), else undefined (count as it streams).
 * The one reading of a declared size: `bodyLimit` and `_jsonBody.ts` refuse an oversized body unread by it.
 */
export function declaredBodySize(c: Context): number | undefined {
  const length = c.req.header('content-length');
  if (length === undefined || c.req.header('transfer-encoding') !== undefined) return undefined;
  const size = Number.parseInt(length, 10);
  return Number.isNaN(size) ? undefined : size;
}
