import {
  type SignedPayloadPart,
  signedPayloadParts,
  type WebhookSignature,
  type WebhookSignatureScheme,
} from '@platform/integration-schema';
import { base64ToBytes } from './_base64.js';
import { boundedMemo } from './_boundedMemo.js';
import { concatBytes, utf8 } from './_hmac.js';

// The scheme rules signing and verifying share: defaults, when a timestamp is part of the
// signature, the HMAC key, and the exact bytes that are signed.

/** A signature scheme with the defaults applied: HMAC-SHA256 of the raw body, as a digest header. */
export interface ResolvedScheme
  extends Omit<
    WebhookSignatureScheme,
    'algorithm' | 'format' | 'signedPayload' | 'secretEncoding' | 'timestampUnit'
  > {
  /** As declared; checked against the supported algorithms by the caller. */
  readonly algorithm: string;
  readonly format: string;
  readonly signedPayload: string;
  readonly secretEncoding: string;
  readonly timestampUnit: string;
}

export function resolveScheme(signature: WebhookSignature): ResolvedScheme {
  const scheme: WebhookSignatureScheme = signature.scheme ?? {};
  return {
    ...scheme,
    algorithm: scheme.algorithm ?? 'sha256',
    format: scheme.format ?? 'digest',
    signedPayload: scheme.signedPayload ?? '{body}',
    secretEncoding: scheme.secretEncoding ?? 'utf8',
    timestampUnit: scheme.timestampUnit ?? 'seconds',
  };
}

// Each template parsed once (a host verifies every delivery of a webhook with the same one); bounded,
// since a host serves many integrations' templates. The parts are shared: read, never changed.
const partsOf: (template: string) => readonly SignedPayloadPart[] = boundedMemo(256, signedPayloadParts);

/** Whether a delivery must carry a timestamp: the signed payload names it or a replay window is set. */
export function needsTimestamp(scheme: ResolvedScheme): boolean {
  return (
    partsOf(scheme.signedPayload).some((part) => part.kind === 'timestamp') ||
    scheme.toleranceSeconds !== undefined
  );
}

/** Whether the scheme declares where the timestamp travels (a key of a keyed header, or its own header). */
export function hasTimestampSource(scheme: ResolvedScheme): boolean {
  return Boolean((scheme.format === 'keyed' && scheme.timestampKey) || scheme.timestampHeader);
}

/** The names (lower-case) of the request headers the signed payload includes. */
export function signedHeaderNames(scheme: ResolvedScheme): string[] {
  return partsOf(scheme.signedPayload).flatMap((part) => (part.kind === 'header' ? [part.name] : []));
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC key: the secret's UTF-8 bytes, or with `secretEncoding: 'base64'` its decoded bytes
 * after a `whsec_` prefix. An error message when the secret cannot be one (never the secret).
 */
export function secretKey(
  secret: string,
  scheme: ResolvedScheme,
): { ok: true; key: Uint8Array<ArrayBuffer> } | { ok: false; reason: string } {
  if (scheme.secretEncoding === 'utf8') {
    // An empty HMAC key would make any party able to forge signatures, and Web Crypto rejects it anyway.
    return secret === '' ? { ok: false, reason: 'missing secret' } : { ok: true, key: utf8(secret) };
  }
  if (scheme.secretEncoding !== 'base64') return { ok: false, reason: 'unsupported secret encoding' };
  const text = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (text.length % 4 !== 0 || !BASE64.test(text)) {
    return { ok: false, reason: 'the signing secret is not valid base64 (secretEncoding "base64")' };
  }
  const key = base64ToBytes(text);
  return key.byteLength === 0 ? { ok: false, reason: 'missing secret' } : { ok: true, key };
}

/** What the placeholders other than `{body}` stand for in one delivery. */
export interface SignedValues {
  readonly timestamp: string;
  readonly method: string | undefined;
  /** Or a function, called only when the template signs `{url}`. */
  readonly url: string | (() => string) | undefined;
  /** A request header's value by lower-case name, `undefined` when it was not sent. */
  readonly header: (name: string) => string | undefined;
}

/**
 * The exact bytes signed. Each part is encoded separately so that a body that is not valid UTF-8
 * is signed byte for byte. An unknown placeholder (the schema refuses them) stays literal text.
 */
export function signedMessage(
  template: string,
  values: SignedValues,
  rawBody: string | Uint8Array,
):
  | { ok: true; message: Uint8Array<ArrayBuffer> }
  | { ok: false; reason: string; refusal: 'missing_header' | 'misconfigured' } {
  const body = typeof rawBody === 'string' ? utf8(rawBody) : rawBody;
  const templateParts = partsOf(template);
  // The common scheme signs the body alone: its bytes are the message (read, never changed), unless
  // they are a view a digest cannot take as is (over a SharedArrayBuffer).
  if (templateParts.length === 1 && templateParts[0]!.kind === 'body' && body.buffer instanceof ArrayBuffer) {
    return { ok: true, message: body as Uint8Array<ArrayBuffer> };
  }
  const parts: Uint8Array[] = [];
  for (const part of templateParts) {
    switch (part.kind) {
      case 'body':
        parts.push(body);
        break;
      case 'timestamp':
        parts.push(utf8(values.timestamp));
        break;
      case 'method':
        if (values.method === undefined)
          return {
            ok: false,
            reason: 'the scheme signs {method}, but no request method was given',
            refusal: 'misconfigured',
          };
        parts.push(utf8(values.method.toUpperCase()));
        break;
      case 'url': {
        const url = typeof values.url === 'function' ? values.url() : values.url;
        if (url === undefined)
          return {
            ok: false,
            reason: 'the scheme signs {url}, but no request URL was given',
            refusal: 'misconfigured',
          };
        parts.push(utf8(url));
        break;
      }
      case 'header': {
        const value = values.header(part.name);
        if (value === undefined)
          return { ok: false, reason: `missing header "${part.name}"`, refusal: 'missing_header' };
        parts.push(utf8(value));
        break;
      }
      default:
        parts.push(utf8(part.text));
    }
  }
  return { ok: true, message: concatBytes(parts) };
}
