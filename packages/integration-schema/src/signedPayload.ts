// The `signedPayload` template grammar, one place for the schema's rules and the sdk's signing
// and verifying: literal text with `{body}`, `{timestamp}`, `{method}`, `{url}` and
// `{header:<name>}` placeholders.

/** One piece of a `signedPayload` template. */
export type SignedPayloadPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'body' | 'timestamp' | 'method' | 'url' }
  | { readonly kind: 'header'; readonly name: string }
  /** Not a placeholder the sdk replaces (the schema refuses it; signing keeps it as literal text). */
  | { readonly kind: 'unknown'; readonly text: string };

/** The placeholders a `signedPayload` may use, as the schema's messages list them. */
export const SIGNED_PAYLOAD_PLACEHOLDERS = [
  '{timestamp}',
  '{body}',
  '{method}',
  '{url}',
  '{header:<name>}',
] as const;

// An HTTP field name (RFC 9110 token).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const NAMED = new Set(['body', 'timestamp', 'method', 'url']);

/** True when `name` is a valid HTTP header name. */
export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/**
 * Splits a `signedPayload` template into literal text and placeholders. A `{header:<name>}` with an
 * empty or invalid name, or any other `{...}`, is an `unknown` part.
 * @example signedPayloadParts('{header:webhook-id}.{timestamp}.{body}')
 * // [{ kind: 'header', name: 'webhook-id' }, { kind: 'text', text: '.' }, { kind: 'timestamp' }, ...]
 */
export function signedPayloadParts(template: string): SignedPayloadPart[] {
  const parts: SignedPayloadPart[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const index = match.index ?? 0;
    if (index > last) parts.push({ kind: 'text', text: template.slice(last, index) });
    last = index + match[0].length;
    const name = match[1] ?? '';
    if (NAMED.has(name)) parts.push({ kind: name as 'body' | 'timestamp' | 'method' | 'url' });
    else if (name.startsWith('header:') && isHeaderName(name.slice('header:'.length)))
      parts.push({ kind: 'header', name: name.slice('header:'.length).toLowerCase() });
    else parts.push({ kind: 'unknown', text: match[0] });
  }
  if (last < template.length) parts.push({ kind: 'text', text: template.slice(last) });
  return parts;
}
