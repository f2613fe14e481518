/**
 * How a vendor signs webhook deliveries. Omitted: the header holds a bare or `sha256=`-labelled
 * hex HMAC-SHA256 of the raw body.
 *
 * @example Stripe style
 * { format: 'keyed', digestKey: 'v1', timestampKey: 't', signedPayload: '{timestamp}.{body}', toleranceSeconds: 300 }
 */
export interface WebhookSignatureScheme {
  /** HMAC hash. Default `sha256`. */
  readonly algorithm?: 'sha256' | 'sha1';
  /** `digest`: the header holds the digest (hex or base64, optionally labelled `<algorithm>=`). `keyed`: `k=v` pairs separated by commas. Default `digest`. */
  readonly format?: 'digest' | 'keyed';
  /** Keyed only (required there): the key whose values are digests; it may appear several times (key rotation). */
  readonly digestKey?: string;
  /** Keyed only: the key holding the Unix timestamp (seconds). */
  readonly timestampKey?: string;
  /** A separate header holding the Unix timestamp (seconds). */
  readonly timestampHeader?: string;
  /** What is signed, with `{timestamp}` and `{body}` placeholders. Default `{body}`. */
  readonly signedPayload?: string;
  /** Replay window: a timestamp further than this from now is refused. Needs a timestamp source. */
  readonly toleranceSeconds?: number;
}

/** A webhook's `signature` declaration. */
export interface WebhookSignature {
  /** Request header carrying the signature (case-insensitive). */
  readonly header: string;
  /** Name of the secret (resolved through the secrets tiers) holding the signing key. */
  readonly secretName: string;
  readonly scheme?: WebhookSignatureScheme;
}
