import type { WebhookSignature, WebhookSignatureScheme } from '@platform/integration-schema';
import { concatBytes, utf8 } from './_hmac.js';

// The scheme rules signing and verifying share: defaults, when a timestamp is part of the
// signature, and the exact bytes that are signed.

/** A signature scheme with the defaults applied: HMAC-SHA256 of the raw body, as a digest header. */
export interface ResolvedScheme
  extends Omit<WebhookSignatureScheme, 'algorithm' | 'format' | 'signedPayload'> {
  /** As declared; checked against the supported algorithms by the caller. */
  readonly algorithm: string;
  readonly format: string;
  readonly signedPayload: string;
}

export function resolveScheme(signature: WebhookSignature): ResolvedScheme {
  const scheme: WebhookSignatureScheme = signature.scheme ?? {};
  return {
    ...scheme,
    algorithm: scheme.algorithm ?? 'sha256',
    format: scheme.format ?? 'digest',
    signedPayload: scheme.signedPayload ?? '{body}',
  };
}

/** Whether a delivery must carry a timestamp: the signed payload names it or a replay window is set. */
export function needsTimestamp(scheme: ResolvedScheme): boolean {
  return scheme.signedPayload.includes('{timestamp}') || scheme.toleranceSeconds !== undefined;
}

/** Whether the scheme declares where the timestamp travels (a key of a keyed header, or its own header). */
export function hasTimestampSource(scheme: ResolvedScheme): boolean {
  return Boolean((scheme.format === 'keyed' && scheme.timestampKey) || scheme.timestampHeader);
}

/** Encodes each part separately so that a body that is not valid UTF-8 is signed byte for byte. */
export function signedMessage(
  template: string,
  timestamp: string,
  rawBody: string | Uint8Array,
): Uint8Array<ArrayBuffer> {
  const body = typeof rawBody === 'string' ? utf8(rawBody) : rawBody;
  const parts = template
    .split(/(\{timestamp\}|\{body\})/)
    .map((part) => (part === '{body}' ? body : utf8(part === '{timestamp}' ? timestamp : part)));
  return concatBytes(parts);
}
