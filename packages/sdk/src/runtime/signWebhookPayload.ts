import type { WebhookSignature } from '@platform/integration-schema';
import { bytesToBase64 } from './_base64.js';
import { hmac, isHmacAlgorithm } from './_hmac.js';
import { hasTimestampSource, needsTimestamp, resolveScheme, signedMessage } from './_signatureScheme.js';

export interface SignWebhookPayloadInput {
  readonly signature: WebhookSignature;
  /** The exact raw body that will be sent; a string is taken as UTF-8. */
  readonly rawBody: string | Uint8Array;
  /** The HMAC key (UTF-8). */
  readonly secret: string;
  /** Signing time (`Date` or ms since epoch), sent as Unix seconds when the scheme has a timestamp. Default `Date.now()`. */
  readonly now?: Date | number;
  /** Digest encoding. Default `hex`. */
  readonly encoding?: 'hex' | 'base64';
}

/**
 * Signs a webhook body the way a vendor following `signature.scheme` would, returning the headers
 * to send with it (header names as declared): a `<algorithm>=<digest>` digest header, or a keyed
 * header (`t=<seconds>,v1=<digest>`) plus a timestamp header when the scheme has one. Its output
 * passes {@link verifyWebhookSignature}; both read the scheme through the same rules.
 * @example
 * const headers = await signWebhookPayload({ signature: webhook.signature, rawBody, secret });
 * await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: rawBody });
 */
export async function signWebhookPayload(input: SignWebhookPayloadInput): Promise<Record<string, string>> {
  const { signature, rawBody, secret } = input;
  const scheme = resolveScheme(signature);
  const { algorithm, format } = scheme;
  if (!isHmacAlgorithm(algorithm)) throw new TypeError(`unsupported signature algorithm "${algorithm}"`);
  if (format !== 'digest' && format !== 'keyed')
    throw new TypeError(`unsupported signature format "${format}"`);
  if (format === 'keyed' && !scheme.digestKey) throw new TypeError('the keyed scheme has no digestKey');
  if (secret === '') throw new TypeError('the signing secret is empty');
  if (needsTimestamp(scheme) && !hasTimestampSource(scheme))
    throw new TypeError('the scheme signs a timestamp but declares no timestamp source');

  const nowMs = input.now === undefined ? Date.now() : Number(input.now);
  const timestamp = String(Math.floor(nowMs / 1000));
  const digestBytes = await hmac(algorithm, secret, signedMessage(scheme.signedPayload, timestamp, rawBody));
  const digest =
    input.encoding === 'base64'
      ? bytesToBase64(digestBytes)
      : Array.from(digestBytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

  const headers: Record<string, string> = {};
  if (format === 'keyed') {
    const pairs = [
      ...(scheme.timestampKey ? [`${scheme.timestampKey}=${timestamp}`] : []),
      `${scheme.digestKey}=${digest}`,
    ];
    headers[signature.header] = pairs.join(',');
  } else {
    headers[signature.header] = `${algorithm}=${digest}`;
  }
  if (scheme.timestampHeader) headers[scheme.timestampHeader] = timestamp;
  return headers;
}
