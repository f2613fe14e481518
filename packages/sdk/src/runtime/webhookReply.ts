// The one rule for what a webhook's synchronous reply may be, applied by the guest engine and again
// by the host (and the harness) to what comes back from partner code, which is never trusted.

/** Bounds of a reply: its body in UTF-8 bytes. */
export const WEBHOOK_REPLY_LIMITS = { bodyBytes: 64 * 1024 } as const;

/** A checked reply, ready to answer: status, body text, and its content type (none for an empty body). */
export interface WebhookReplyResponse {
  readonly status: number;
  readonly body: string;
  readonly contentType?: string;
}

export type CheckedWebhookReply =
  | { readonly ok: true; readonly reply: WebhookReplyResponse }
  | { readonly ok: false; readonly message: string };

const FIELDS = ['status', 'body', 'headers'];
const HEADER_VALUE = /^[\t\x20-\x7e]{1,256}$/;
const encoder = new TextEncoder();

/**
 * Checks a value returned by a webhook's `reply`: a plain object with `status` (200-299 or 400-499,
 * default 200), `body` (a string is `text/plain`, any other JSON value `application/json`, at most
 * {@link WEBHOOK_REPLY_LIMITS}) and `headers` (only `content-type`).
 * @example checkWebhookReply({ body: { challenge: 'abc' } }) // { ok: true, reply: { status: 200, body: '{"challenge":"abc"}', contentType: 'application/json' } }
 */
export function checkWebhookReply(value: unknown): CheckedWebhookReply {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refused(`a reply is an object { status?, body?, headers? } or undefined, not ${describe(value)}`);
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !FIELDS.includes(key));
  if (unknown.length > 0) {
    return refused(
      `unknown reply field(s) ${unknown.map((key) => `"${key}"`).join(', ')}; a reply has status, body and headers`,
    );
  }
  const status = record.status ?? 200;
  if (
    typeof status !== 'number' ||
    !Number.isInteger(status) ||
    !((status >= 200 && status <= 299) || (status >= 400 && status <= 499))
  ) {
    return refused(`status ${describe(status)} is not allowed; reply with 200-299 or 400-499`);
  }
  let contentType: string | undefined;
  if (record.headers !== undefined) {
    if (typeof record.headers !== 'object' || record.headers === null || Array.isArray(record.headers)) {
      return refused('headers must be an object of header names to strings');
    }
    for (const [name, headerValue] of Object.entries(record.headers)) {
      if (name.toLowerCase() !== 'content-type') {
        return refused(`header "${name}" is not allowed in a reply; only content-type is`);
      }
      if (typeof headerValue !== 'string' || !HEADER_VALUE.test(headerValue)) {
        return refused('content-type must be a printable string of at most 256 characters');
      }
      contentType = headerValue;
    }
  }
  let body = '';
  if (typeof record.body === 'string') {
    body = record.body;
    contentType ??= 'text/plain; charset=utf-8';
  } else if (record.body !== undefined) {
    let json: string | undefined;
    try {
      json = JSON.stringify(record.body);
    } catch {
      json = undefined;
    }
    if (typeof json !== 'string') return refused('body must be a string or a JSON value');
    body = json;
    contentType ??= 'application/json';
  }
  const bytes = encoder.encode(body).byteLength;
  if (bytes > WEBHOOK_REPLY_LIMITS.bodyBytes) {
    return refused(`the body has ${bytes} bytes; a reply body has at most ${WEBHOOK_REPLY_LIMITS.bodyBytes}`);
  }
  if ((status === 204 || status === 205) && body !== '') {
    return refused(`a ${status} reply has no body; drop the body or reply with 200`);
  }
  return {
    ok: true,
    reply: { status, body, ...(body === '' || contentType === undefined ? {} : { contentType }) },
  };
}

function refused(message: string): CheckedWebhookReply {
  return { ok: false, message: `The webhook's reply was refused: ${message}.` };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  return `a ${typeof value}`;
}
