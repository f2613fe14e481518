import { buildVendorClient, REAL_ENV } from './_vendorClient.js';
import type { VendorClient, VendorClientContext, VendorClientOptions } from './types.js';

/**
 * HTTP to one vendor over `ctx.fetch` (egress and the host's checks apply as to any call):
 * paths joined to `baseUrl`, default headers, `VendorHttpError` for any non-2xx answer, retries
 * with exponential backoff and full jitter on 429 (any method), and on network errors and
 * 502/503/504 for idempotent methods, honouring `Retry-After` and never waiting past the call's
 * budget (`ctx.remainingMs()`); pagination by `Link` header, page number or cursor.
 * @example
 * const github = createVendorClient(ctx, {
 *   name: 'GitHub',
 *   baseUrl: 'https://api.github.com',
 *   headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${token}` },
 * });
 * const issue = await github.json<{ number: number }>('POST', '/repos/o/r/issues', { json: { title } });
 * for await (const page of github.paginate<Issue>('/repos/o/r/issues', { style: 'link', query: { per_page: 100 } })) { ... }
 */
export function createVendorClient(ctx: VendorClientContext, options: VendorClientOptions): VendorClient {
  return buildVendorClient(ctx, options, REAL_ENV);
}
