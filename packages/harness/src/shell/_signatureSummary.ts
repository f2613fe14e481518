import type { WebhookSignature } from '@platform/sdk/integration';

/** One fact of a webhook's signature scheme, for the Triggers surface's badge. */
export interface SignatureFact {
  readonly label: string;
  readonly value: string;
}

/**
 * The signature scheme in words: algorithm, what is signed, keyed or digest, where the timestamp
 * comes from, the replay window. Defaults spelled out as the sdk applies them.
 * @example signatureFacts({ header: 'X-Sig', secretName: 'S' })[0] // { label: 'Algorithm', value: 'HMAC-SHA256' }
 */
export function signatureFacts(signature: WebhookSignature): SignatureFact[] {
  const scheme = signature.scheme ?? {};
  const format = scheme.format ?? 'digest';
  const timestamp =
    scheme.timestampHeader !== undefined
      ? `header ${scheme.timestampHeader}`
      : scheme.timestampKey !== undefined
        ? `key ${scheme.timestampKey}= in ${signature.header}`
        : 'none';
  const facts: SignatureFact[] = [
    { label: 'Algorithm', value: `HMAC-${(scheme.algorithm ?? 'sha256').toUpperCase()}` },
    { label: 'Header', value: signature.header },
    {
      label: 'Format',
      value:
        format === 'keyed'
          ? `keyed (k=v pairs; digest under ${scheme.digestKey ?? '?'}=)`
          : signature.scheme === undefined
            ? 'digest (bare or sha256=-labelled hex)'
            : 'digest',
    },
    { label: 'Signed payload', value: scheme.signedPayload ?? '{body}' },
    { label: 'Timestamp', value: timestamp },
    {
      label: 'Replay window',
      value: scheme.toleranceSeconds === undefined ? 'none' : `±${scheme.toleranceSeconds} s`,
    },
    { label: 'Secret', value: signature.secretName },
  ];
  return facts;
}
