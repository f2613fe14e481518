import type { IntegrationContext, Logger } from '../types.js';

/** What the vendor client uses of `ctx`: `fetch`, and `remainingMs` and `logger` when there. */
export interface VendorClientContext {
  readonly fetch: IntegrationContext['fetch'];
  readonly remainingMs?: () => number;
  readonly logger?: Pick<Logger, 'warn'>;
}

/** When and how long the client waits before trying again. */
export interface VendorRetryOptions {
  /** Tries in all, the first included. Default 4; 1 sends once. */
  readonly maxAttempts?: number;
  /** The ceiling of the first wait, doubled for each retry (full jitter: a random wait up to it). Default 500. */
  readonly baseDelayMs?: number;
  /** The longest single wait, backoff or `Retry-After`; a vendor asking for longer gets its error. Default 30 000. */
  readonly maxDelayMs?: number;
  /** Time left unslept at the end of the call's budget (`ctx.remainingMs()`), for the last try. Default 1000. */
  readonly budgetMarginMs?: number;
}

export interface VendorClientOptions {
  /** The vendor's name in errors and logs: `GitHub answered 422 ...`. */
  readonly name: string;
  /** The origin (and an optional path prefix) request paths are joined to, e.g. `https://api.github.com`. */
  readonly baseUrl: string;
  /** Sent with every request; a request's own headers win. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly retry?: VendorRetryOptions;
}

/** Query parameters: `undefined` and `null` are left out, an array repeats the name. */
export type VendorQuery = Readonly<
  Record<string, string | number | boolean | null | undefined | readonly (string | number | boolean)[]>
>;

export type VendorMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | (string & {});

export interface VendorRequestOptions {
  /** Added to the path's own query. */
  readonly query?: VendorQuery;
  /** Over the client's headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON, with `content-type: application/json` unless `headers` set one. */
  readonly json?: unknown;
  /** A body sent as is (and again on a retry); not together with `json`. */
  readonly body?: string | Uint8Array | ArrayBuffer | URLSearchParams;
  /**
   * Whether repeating the request is safe, so network errors and 502/503/504 are retried.
   * Default: true for GET, HEAD, PUT, DELETE and OPTIONS. Set it for a POST the vendor
   * deduplicates (an idempotency key). 429 is retried whatever the method.
   */
  readonly idempotent?: boolean;
  /** This request's retry settings over the client's; `false` sends once. */
  readonly retry?: VendorRetryOptions | false;
}

interface VendorPaginateCommon<T, B> {
  readonly query?: VendorQuery;
  readonly headers?: Readonly<Record<string, string>>;
  /** The items of a page's JSON body. Default: the body, which must then be an array. */
  readonly items?: (body: B) => readonly T[];
  /** Pages read at most; a vendor with more makes `paginate` throw rather than run on. Default 1000. */
  readonly maxPages?: number;
}

/** Follows the `Link` header's `rel="next"` (GitHub, GitLab, many REST APIs); stops when there is none. */
export interface VendorLinkPagination<T, B> extends VendorPaginateCommon<T, B> {
  readonly style: 'link';
}

/** Counts a page number up; stops at an empty page, or a page shorter than `size`. */
export interface VendorPagePagination<T, B> extends VendorPaginateCommon<T, B> {
  readonly style: 'page';
  /** Default `page`. */
  readonly pageParam?: string;
  /** The first page's number. Default 1. */
  readonly start?: number;
  /** The page-size parameter, sent with `size` (which it needs). */
  readonly sizeParam?: string;
  /** Items a full page has: a shorter page is the last. */
  readonly size?: number;
}

/** Sends the cursor the previous page named; stops when `nextCursor` answers none. */
export interface VendorCursorPagination<T, B> extends VendorPaginateCommon<T, B> {
  readonly style: 'cursor';
  /** Default `cursor`. */
  readonly cursorParam?: string;
  /** The next page's cursor from a page's body; `undefined`, `null` or `''` ends. */
  readonly nextCursor: (body: B) => string | null | undefined;
  /** A cursor for the first page. Default: none sent. */
  readonly start?: string;
}

export type VendorPaginateOptions<T, B> =
  | VendorLinkPagination<T, B>
  | VendorPagePagination<T, B>
  | VendorCursorPagination<T, B>;

/** HTTP to one vendor over `ctx.fetch`: base URL, headers, retries, typed errors and pagination. */
export interface VendorClient {
  readonly name: string;
  readonly baseUrl: string;
  /**
   * Sends one request (retried as {@link VendorRequestOptions} says) and answers the 2xx response;
   * any other status throws `VendorHttpError`.
   */
  request(method: VendorMethod, path: string, options?: VendorRequestOptions): Promise<Response>;
  /** `request` with `accept: application/json`, answering the parsed body (`undefined` for an empty one). */
  json<T = unknown>(method: VendorMethod, path: string, options?: VendorRequestOptions): Promise<T>;
  /** GETs page after page, yielding each page's items (pages without items are skipped). */
  paginate<T = unknown, B = any>(
    path: string,
    options: VendorPaginateOptions<T, B>,
  ): AsyncGenerator<T[], void, undefined>;
}
