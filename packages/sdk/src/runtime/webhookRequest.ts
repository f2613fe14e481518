import type { WebhookRequest } from '../integration/webhookRequest.js';
import { boundedMemo } from './_boundedMemo.js';
import type { WebhookHeaders } from './verifyWebhookSignature.js';

// The one rule for what a webhook delivery looks like to partner code, shared by the host's ingress
// (what it stores with a job), the guest engine (what a handler receives) and the harness's trigger:
// which bodies are form-encoded, and the read-only, credential-free, bounded view of the headers.

/** Bounds of the header view: headers past them are left out (in name order). */
export const WEBHOOK_HEADER_LIMITS = { count: 64, bytes: 8 * 1024 } as const;

/** What a delivery keeps of its request besides the body: stored with a queued delivery, JSON only. */
export interface WebhookRequestInit {
  readonly method: string;
  /** Already a view (see {@link webhookHeaderView}); applied again when the request is built. */
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType?: string | undefined;
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
// Words that make a header a credential wherever they stand as a hyphen-separated part of its name
// (x-api-key, x-auth-token, x-gitlab-token, x-csrf-token, x-amz-security-token, ...).
const CREDENTIAL_WORD = /(^|-)(token|secret|password|passwd|api-?key|auth|session|credentials?)(-|$)/;

/**
 * Whether a header carries a credential and so never reaches partner code.
 * @example isCredentialHeader('X-Api-Key') // true
 */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || CREDENTIAL_WORD.test(lower);
}

// Raw header name -> its name in the view, or null when it is left out: a pseudo-header (`:path`,
// HTTP/2) is not a header, and a credential never reaches partner code. Senders repeat the same few
// names on every delivery; bounded, since any sender may invent names.
const viewName = boundedMemo(1024, (name): string | null => {
  const lower = name.toLowerCase();
  return name.startsWith(':') || isCredentialHeader(lower) ? null : lower;
});

/**
 * The headers partner code may read: names lower-cased, repeated values joined with `, `,
 * credentials dropped, then at most {@link WEBHOOK_HEADER_LIMITS} (name and value bytes together),
 * taken in name order. `headers` is a `Headers`, a record, or a raw list of names and values in
 * turn (Node's `IncomingMessage.rawHeaders`, which the host reads without building a `Headers`).
 * @example webhookHeaderView(request.headers) // { 'content-type': 'application/json', 'x-github-event': 'push' }
 */
export function webhookHeaderView(headers: WebhookHeaders | readonly string[]): Record<string, string> {
  const joined = new Map<string, string>();
  const add = (name: string, value: unknown) => {
    if (typeof value !== 'string') return;
    const lower = viewName(name);
    if (lower === null) return;
    const before = joined.get(lower);
    joined.set(lower, before === undefined ? value : `${before}, ${value}`);
  };
  if (Array.isArray(headers)) {
    for (let at = 0; at + 1 < headers.length; at += 2) add(headers[at] as string, headers[at + 1]);
  } else if (
    typeof (headers as Headers).forEach === 'function' &&
    typeof (headers as Headers).get === 'function'
  ) {
    (headers as Headers).forEach((value, name) => {
      add(name, value);
    });
  } else {
    for (const [name, value] of Object.entries(headers as Readonly<Record<string, unknown>>)) {
      if (Array.isArray(value)) for (const item of value) add(name, item);
      else add(name, value);
    }
  }
  const view: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  for (const name of [...joined.keys()].sort()) {
    const value = joined.get(name)!;
    const size = utf8Length(name) + utf8Length(value);
    if (count >= WEBHOOK_HEADER_LIMITS.count) break;
    if (bytes + size > WEBHOOK_HEADER_LIMITS.bytes) continue;
    view[name] = value;
    count += 1;
    bytes += size;
  }
  return view;
}

/** The UTF-8 length of `text` without encoding it (a lone surrogate counts 3, as TextEncoder's U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        at += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** How a body is parsed before `payloadSchema`: form-encoded, or JSON (the default, also when no type is sent). */
export function webhookBodyKind(contentType: string | undefined): 'form' | 'json' {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/x-www-form-urlencoded' ? 'form' : 'json';
}

export type ParsedWebhookBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string };

/**
 * Parses a raw delivery body by its Content-Type: `application/x-www-form-urlencoded` into an
 * object (a repeated key gives an array of strings, a single one a string); anything else as JSON.
 * @example parseWebhookBody('command=%2Fnote&text=hi', 'application/x-www-form-urlencoded') // { ok: true, value: { command: '/note', text: 'hi' } }
 */
export function parseWebhookBody(rawBody: string, contentType: string | undefined): ParsedWebhookBody {
  if (webhookBodyKind(contentType) === 'form') return { ok: true, value: parseForm(rawBody) };
  try {
    return { ok: true, value: JSON.parse(rawBody) };
  } catch (error) {
    return { ok: false, message: `The payload is not JSON: ${(error as Error).message}` };
  }
}

/**
 * The form body a vendor would send for `fields` (an array repeats its key): the inverse of the
 * form parsing above, for the harness's trigger and tests. `undefined` when a value is neither a
 * string nor an array of strings.
 * @example webhookFormBody({ command: '/note', tag: ['a', 'b'] }) // 'command=%2Fnote&tag=a&tag=b'
 */
export function webhookFormBody(fields: unknown): string | undefined {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (!values.every((item) => typeof item === 'string')) return undefined;
    for (const item of values as string[]) params.append(key, item);
  }
  return params.toString();
}

function parseForm(rawBody: string): Record<string, string | string[]> {
  const form: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(rawBody)) {
    const previous = Object.hasOwn(form, key) ? form[key] : undefined;
    const next =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    // Defined, not assigned: a key named `__proto__` stays an ordinary field.
    Object.defineProperty(form, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return form;
}

/**
 * The frozen {@link WebhookRequest} a handler or `reply` receives. The header rule is applied again,
 * so a request stored by an older host (or none at all) gives the same view.
 * @example const request = toWebhookRequest({ method: 'POST', headers, contentType }, rawBody);
 */
export function toWebhookRequest(init: WebhookRequestInit | undefined, rawBody: string): WebhookRequest {
  const headers = Object.freeze(
    Object.assign(Object.create(null) as Record<string, string>, webhookHeaderView(init?.headers ?? {})),
  );
  return Object.freeze({
    method: typeof init?.method === 'string' ? init.method.toUpperCase() : 'POST',
    headers,
    rawBody,
    contentType: typeof init?.contentType === 'string' ? init.contentType : undefined,
  });
}
