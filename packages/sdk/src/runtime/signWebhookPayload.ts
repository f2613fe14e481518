import type { WebhookSignature } from '@platform/integration-schema';
import { bytesToBase64 } from './_base64.js';
import { hmac, isHmacAlgorithm } from './_hmac.js';
import {
  hasTimestampSource,
  needsTimestamp,
  resolveScheme,
  secretKey,
  signedHeaderNames,
  signedMessage,
} from './_signatureScheme.js';

export interface SignWebhookPayloadInput {
  readonly signature: WebhookSignature;
  /** The exact raw body that will be sent; a string is taken as UTF-8. */
  readonly rawBody: string | Uint8Array;
  /** The signing secret (UTF-8, or base64 with the scheme's `secretEncoding: 'base64'`). */
  readonly secret: string;
  /** Signing time (`Date` or ms since epoch), sent in the scheme's `timestampUnit` (default Unix seconds). Default `Date.now()`. */
  readonly now?: Date | number;
  /** Digest encoding. Default `base64` for format `versioned`, else `hex`. */
  readonly encoding?: 'hex' | 'base64';
  /** The request method, for `{method}`. */
  readonly method?: string;
  /** The URL the delivery is sent to, for `{url}`. */
  readonly url?: string;
  /** Values of the headers `{header:<name>}` signs (names case-insensitive); sent back among the result. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Signs a webhook body the way a vendor following `signature.scheme` would, returning the headers
 * to send with it (header names as declared): a `<algorithm>=<digest>` digest header, a keyed
 * header (`t=<seconds>,v1=<digest>`) or a versioned one (`v1,<base64>`), plus a timestamp header
 * and the signed headers given in `headers` when the scheme has them. Its output passes
 * {@link verifyWebhookSignature}; both read the scheme through the same rules.
 * @example
 * const headers = await signWebhookPayload({ signature: webhook.signature, rawBody, secret });
 * await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: rawBody });
 */
export async function signWebhookPayload(input: SignWebhookPayloadInput): Promise<Record<string, string>> {
  const { signature, rawBody, secret } = input;
  const scheme = resolveScheme(signature);
  const { algorithm, format } = scheme;
  if (!isHmacAlgorithm(algorithm)) throw new TypeError(`unsupported signature algorithm "${algorithm}"`);
  if (format !== 'digest' && format !== 'keyed' && format !== 'versioned')
    throw new TypeError(`unsupported signature format "${format}"`);
  if (format !== 'digest' && !scheme.digestKey) throw new TypeError(`the ${format} scheme has no digestKey`);
  if (secret === '') throw new TypeError('the signing secret is empty');
  const key = secretKey(secret, scheme);
  if (!key.ok) throw new TypeError(key.reason);
  if (needsTimestamp(scheme) && !hasTimestampSource(scheme))
    throw new TypeError('the scheme signs a timestamp but declares no timestamp source');

  const nowMs = input.now === undefined ? Date.now() : Number(input.now);
  const timestamp = String(Math.floor(scheme.timestampUnit === 'milliseconds' ? nowMs : nowMs / 1000));
  const given = new Map(
    Object.entries(input.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const message = signedMessage(
    scheme.signedPayload,
    { timestamp, method: input.method, url: input.url, header: (name) => given.get(name) },
    rawBody,
  );
  if (!message.ok) throw new TypeError(`cannot sign: ${message.reason}; pass it in the input`);
  const digestBytes = await hmac(algorithm, key.key, message.message);
  const encoding = input.encoding ?? (format === 'versioned' ? 'base64' : 'hex');
  const digest =
    encoding === 'base64'
      ? bytesToBase64(digestBytes)
      : Array.from(digestBytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

  const headers: Record<string, string> = {};
  for (const name of signedHeaderNames(scheme)) {
    const original = Object.keys(input.headers ?? {}).find((candidate) => candidate.toLowerCase() === name);
    if (original !== undefined) headers[original] = given.get(name)!;
  }
  if (format === 'keyed') {
    const pairs = [
      ...(scheme.timestampKey ? [`${scheme.timestampKey}=${timestamp}`] : []),
      `${scheme.digestKey}=${digest}`,
    ];
    headers[signature.header] = pairs.join(',');
  } else if (format === 'versioned') {
    headers[signature.header] = `${scheme.digestKey},${digest}`;
  } else {
    headers[signature.header] = `${algorithm}=${digest}`;
  }
  if (scheme.timestampHeader) headers[scheme.timestampHeader] = timestamp;
  return headers;
}
