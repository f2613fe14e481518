import type { WebhookSignature } from '@platform/sdk/integration';
import { resolveSignatureScheme } from '@platform/sdk/runtime';

/** One fact of a webhook's signature scheme, for the Triggers surface's badge. */
export interface SignatureFact {
  readonly label: string;
  readonly value: string;
}

/**
 * The signature scheme in words: algorithm, what is signed, digest, keyed or versioned, where the
 * timestamp comes from and in which unit, the replay window, how the secret is read. Defaults
 * spelled out as the sdk applies them.
 * @example signatureFacts({ header: 'X-Sig', secretName: 'S' })[0] // { label: 'Algorithm', value: 'HMAC-SHA256' }
 */
export function signatureFacts(signature: WebhookSignature): SignatureFact[] {
  // The defaults as signing and verifying apply them (the sdk's one place for them).
  const scheme = resolveSignatureScheme(signature);
  const format = scheme.format;
  const source =
    scheme.timestampHeader !== undefined
      ? `header ${scheme.timestampHeader}`
      : scheme.timestampKey !== undefined
        ? `key ${scheme.timestampKey}= in ${signature.header}`
        : undefined;
  const timestamp = source === undefined ? 'none' : `${source} (${scheme.timestampUnit})`;
  const facts: SignatureFact[] = [
    { label: 'Algorithm', value: `HMAC-${scheme.algorithm.toUpperCase()}` },
    { label: 'Header', value: signature.header },
    {
      label: 'Format',
      value:
        format === 'keyed'
          ? `keyed (k=v pairs; digest under ${scheme.digestKey ?? '?'}=)`
          : format === 'versioned'
            ? `versioned (space-separated ${scheme.digestKey ?? '?'},<digest> entries)`
            : signature.scheme === undefined
              ? 'digest (bare or sha256=-labelled hex)'
              : 'digest',
    },
    { label: 'Signed payload', value: scheme.signedPayload },
    { label: 'Timestamp', value: timestamp },
    {
      label: 'Replay window',
      value: scheme.toleranceSeconds === undefined ? 'none' : `±${scheme.toleranceSeconds} s`,
    },
    { label: 'Secret', value: signature.secretName },
    {
      label: 'Secret encoding',
      value: scheme.secretEncoding === 'base64' ? 'base64 (a whsec_ prefix is dropped)' : 'utf8',
    },
  ];
  return facts;
}
