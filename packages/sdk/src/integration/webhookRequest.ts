/** A JSON value, as a webhook reply body may be. */
export type WebhookJson =
  | string
  | number
  | boolean
  | null
  | readonly WebhookJson[]
  | { readonly [key: string]: WebhookJson };

/**
 * The delivery a webhook's `handler` and `reply` receive beside the parsed payload: a read-only
 * view of what the vendor sent. Header names are lower-case; credentials (`Authorization`,
 * `Proxy-Authorization`, `Cookie`, token and API-key headers) are never in it, and it is bounded
 * (at most 64 headers, 8 KiB).
 * @example handler: async (ctx, payload, request) => { if (request.headers['x-github-event'] === 'push') ... }
 */
export interface WebhookRequest {
  /** Upper-case, as received (`POST`). */
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as received (UTF-8), before form or JSON parsing. */
  readonly rawBody: string;
  /** The request's `Content-Type` header, `undefined` when it sent none. */
  readonly contentType: string | undefined;
}

/**
 * What a webhook's `reply` returns to answer the vendor at once (a verification challenge) instead
 * of queueing the delivery. The host checks it: status 200-299 or 400-499 (default 200), body at
 * most 64 KiB (a string is sent as `text/plain`, any other JSON value as `application/json`), and
 * only a `content-type` header.
 * @example reply: (payload) => payload.type === 'url_verification' ? { body: { challenge: payload.challenge } } : undefined
 */
export interface WebhookReply {
  readonly status?: number;
  readonly body?: WebhookJson;
  readonly headers?: Readonly<Record<string, string>>;
}
