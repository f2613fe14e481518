/**
 * How a vendor signs webhook deliveries. Omitted: the header holds a bare or `sha256=`-labelled
 * hex HMAC-SHA256 of the raw body.
 *
 * @example Stripe style
 * { format: 'keyed', digestKey: 'v1', timestampKey: 't', signedPayload: '{timestamp}.{body}', toleranceSeconds: 300 }
 * @example Standard Webhooks (header `webhook-signature`)
 * { format: 'versioned', digestKey: 'v1', secretEncoding: 'base64', timestampHeader: 'webhook-timestamp', signedPayload: '{header:webhook-id}.{timestamp}.{body}', toleranceSeconds: 300 }
 * @example HubSpot v3 (header `X-HubSpot-Signature-v3`)
 * { timestampHeader: 'X-HubSpot-Request-Timestamp', timestampUnit: 'milliseconds', signedPayload: '{method}{url}{body}{timestamp}', toleranceSeconds: 300 }
 */
export interface WebhookSignatureScheme {
  /** HMAC hash. Default `sha256`. */
  readonly algorithm?: 'sha256' | 'sha1';
  /**
   * `digest`: the header holds the digest (hex or base64, optionally labelled `<algorithm>=`).
   * `keyed`: `k=v` pairs separated by commas. `versioned`: space-separated `<version>,<digest>`
   * entries (Standard Webhooks' `v1,<base64>`). Default `digest`.
   */
  readonly format?: 'digest' | 'keyed' | 'versioned';
  /**
   * Keyed and versioned only (required there): the key (keyed) or version (versioned) whose values
   * are digests; it may appear several times (key rotation).
   */
  readonly digestKey?: string;
  /** Keyed only: the key holding the Unix timestamp. */
  readonly timestampKey?: string;
  /** A separate header holding the Unix timestamp. */
  readonly timestampHeader?: string;
  /** Unit of the timestamp, for `toleranceSeconds`. Default `seconds` (HubSpot sends `milliseconds`). */
  readonly timestampUnit?: 'seconds' | 'milliseconds';
  /**
   * How the secret is turned into the HMAC key. `utf8`: its characters (default). `base64`: a
   * `whsec_` prefix is dropped, the rest decoded (Standard Webhooks, Svix).
   */
  readonly secretEncoding?: 'utf8' | 'base64';
  /**
   * What is signed. Placeholders: `{body}` (required: the raw body), `{timestamp}` (as received),
   * `{method}` (upper-case request method), `{url}` (the URL the vendor called: the host's public
   * origin, path and query as received), `{header:<name>}` (that request header's value). Default `{body}`.
   */
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
