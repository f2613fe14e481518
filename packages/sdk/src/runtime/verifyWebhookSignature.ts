import type { WebhookSignature } from '@platform/integration-schema';
import {
  constantTimeEqual,
  decodeDigest,
  digestLength,
  type HmacAlgorithm,
  hmac,
  isHmacAlgorithm,
} from './_hmac.js';
import {
  hasTimestampSource,
  needsTimestamp,
  resolveScheme,
  secretKey,
  signedMessage,
} from './_signatureScheme.js';

export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookSignatureInput {
  readonly signature: WebhookSignature;
  /** Request headers; names are matched case-insensitively. */
  readonly headers: WebhookHeaders;
  /** The exact raw body as received; a string is taken as UTF-8. */
  readonly rawBody: string | Uint8Array;
  /** The signing secret (UTF-8, or base64 with the scheme's `secretEncoding: 'base64'`). */
  readonly secret: string;
  /** The request method, for `{method}` (upper-cased). */
  readonly method?: string;
  /**
   * The URL the vendor called (public origin, path and query as received), for `{url}`; or a
   * function making it, called only when the scheme signs `{url}`.
   */
  readonly url?: string | (() => string);
  /** Current time (`Date` or ms since epoch). Default `Date.now()`. */
  readonly now?: Date | number;
}

/**
 * Why a signature was refused, as a category a security log may record: never the header, digest
 * or body. `misconfigured` is the scheme or secret itself (an invalid base64 secret, a scheme that
 * cannot be applied), not the sender.
 */
export type WebhookRefusal =
  | 'missing_signature'
  | 'missing_header'
  | 'malformed'
  | 'missing_timestamp'
  | 'stale_timestamp'
  | 'mismatch'
  | 'misconfigured';

/** A verdict: valid, or refused with why in words (`reason`, for the sender) and as a category. */
export type WebhookVerification =
  | { readonly valid: true; readonly reason?: undefined; readonly refusal?: undefined }
  | { readonly valid: false; readonly reason: string; readonly refusal: WebhookRefusal };

/**
 * Checks a webhook delivery's HMAC signature (and timestamp window) against the raw body; with
 * `{method}`, `{url}` or `{header:<name>}` in the scheme's `signedPayload`, against those too.
 *
 * @example
 * const { valid, reason } = await verifyWebhookSignature({ signature: { header: 'X-Hub-Signature-256', secretName: 'GITHUB_WEBHOOK_SECRET' }, headers: request.headers, rawBody, secret });
 */
export async function verifyWebhookSignature(
  input: VerifyWebhookSignatureInput,
): Promise<WebhookVerification> {
  const { signature, headers, rawBody, secret } = input;
  const scheme = resolveScheme(signature);
  const { algorithm, format, signedPayload: template } = scheme;
  if (!isHmacAlgorithm(algorithm)) return invalid('misconfigured', 'unsupported signature algorithm');
  if (format !== 'digest' && format !== 'keyed' && format !== 'versioned')
    return invalid('misconfigured', 'unsupported signature format');
  if (format !== 'digest' && !scheme.digestKey) return invalid('misconfigured', 'scheme has no digestKey');
  const hmacKey = secretKey(secret, scheme);
  if (!hmacKey.ok) return invalid('misconfigured', hmacKey.reason);

  const headerValue = readHeader(headers, signature.header);
  if (headerValue === undefined)
    return invalid('missing_signature', `missing signature header "${signature.header.toLowerCase()}"`);

  let digests: string[];
  let timestamp: string | undefined;
  if (format === 'keyed') {
    const pairs = parsePairs(headerValue);
    if (!pairs) return invalid('malformed', 'malformed signature header');
    digests = pairs.filter(([key]) => key === scheme.digestKey).map(([, value]) => value);
    if (digests.length === 0)
      return invalid('missing_signature', `no "${scheme.digestKey}" digest in signature header`);
    if (scheme.timestampKey) timestamp = pairs.find(([key]) => key === scheme.timestampKey)?.[1];
  } else if (format === 'versioned') {
    const entries = parseVersioned(headerValue);
    if (!entries) return invalid('malformed', 'malformed signature header');
    digests = entries.filter(([version]) => version === scheme.digestKey).map(([, value]) => value);
    if (digests.length === 0)
      return invalid('missing_signature', `no "${scheme.digestKey}" digest in signature header`);
  } else {
    digests = parseDigestList(headerValue, algorithm);
    if (digests.length === 0)
      return invalid('missing_signature', `no ${algorithm} digest in signature header`);
  }
  if (timestamp === undefined && scheme.timestampHeader)
    timestamp = readHeader(headers, scheme.timestampHeader);

  if (needsTimestamp(scheme)) {
    if (!hasTimestampSource(scheme)) return invalid('misconfigured', 'scheme has no timestamp source');
    if (timestamp === undefined) return invalid('missing_timestamp', 'missing timestamp');
    if (!/^\d+$/.test(timestamp)) return invalid('malformed', 'malformed timestamp');
  }

  const candidates: Uint8Array[] = [];
  for (const digest of digests) {
    const bytes = decodeDigest(digest, digestLength(algorithm));
    if (!bytes) return invalid('malformed', 'malformed signature header');
    candidates.push(bytes);
  }

  const message = signedMessage(
    template,
    {
      timestamp: timestamp ?? '',
      method: input.method,
      url: input.url,
      header: (name) => readHeader(headers, name),
    },
    rawBody,
  );
  if (!message.ok) return invalid(message.refusal, message.reason);
  const expected = await hmac(algorithm, hmacKey.key, message.message);
  // Every candidate is compared, so timing does not reveal which rotated key matched.
  let matched = false;
  for (const candidate of candidates) matched = constantTimeEqual(candidate, expected) || matched;
  if (!matched) return invalid('mismatch', 'signature does not match');

  // Checked after the signature, so a forged request is reported as a mismatch rather than as stale.
  if (scheme.toleranceSeconds !== undefined && timestamp !== undefined) {
    const nowMs = input.now === undefined ? Date.now() : Number(input.now);
    const sentMs = Number(timestamp) * (scheme.timestampUnit === 'milliseconds' ? 1 : 1000);
    if (Math.abs(nowMs - sentMs) > scheme.toleranceSeconds * 1000) {
      return invalid('stale_timestamp', `timestamp outside the ${scheme.toleranceSeconds} s tolerance`);
    }
  }
  return { valid: true };
}

function invalid(refusal: WebhookRefusal, reason: string): WebhookVerification {
  return { valid: false, reason, refusal };
}

/** Joins repeated values with commas, as `Headers#get` does; blank counts as missing. */
function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  let value: string | null | undefined;
  // Duck-typed rather than `instanceof Headers`: isolates may lack the global or bring their own class.
  if (typeof headers.get === 'function') {
    value = (headers as Headers).get(name);
  } else {
    const wanted = name.toLowerCase();
    const found: string[] = [];
    for (const [key, entry] of Object.entries(
      headers as Record<string, string | readonly string[] | undefined>,
    )) {
      if (key.toLowerCase() !== wanted || entry === undefined) continue;
      found.push(...(typeof entry === 'string' ? [entry] : entry));
    }
    value = found.join(', ');
  }
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** `k=v` pairs separated by commas; `undefined` when any non-empty part lacks a key or `=`. */
function parsePairs(header: string): Array<[string, string]> | undefined {
  const pairs: Array<[string, string]> = [];
  for (const part of header.split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    const equals = trimmed.indexOf('=');
    if (equals <= 0) return undefined;
    pairs.push([trimmed.slice(0, equals).trim(), trimmed.slice(equals + 1).trim()]);
  }
  return pairs;
}

/** `<version>,<digest>` entries separated by whitespace; `undefined` when an entry has no version. */
function parseVersioned(header: string): Array<[string, string]> | undefined {
  const entries: Array<[string, string]> = [];
  for (const token of header.split(/\s+/)) {
    if (token === '') continue;
    const comma = token.indexOf(',');
    if (comma <= 0) return undefined;
    entries.push([token.slice(0, comma), token.slice(comma + 1)]);
  }
  return entries;
}

/**
 * Digests separated by commas and/or whitespace, each optionally labelled `<algorithm>=`. Digests
 * labelled for another algorithm are skipped: a vendor may send several hashes side by side.
 */
function parseDigestList(header: string, algorithm: HmacAlgorithm): string[] {
  const digests: string[] = [];
  for (const token of header.split(/[\s,]+/)) {
    if (token === '') continue;
    // The value may not start with `=`, so base64 padding is never mistaken for a label.
    const labelled = /^([A-Za-z0-9_-]+)=([^=].*)$/.exec(token);
    if (!labelled) digests.push(token);
    else if (labelled[1]?.toLowerCase() === algorithm) digests.push(labelled[2] ?? '');
  }
  return digests;
}
