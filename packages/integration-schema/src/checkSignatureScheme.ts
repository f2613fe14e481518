import type { WebhookSignatureScheme } from './webhookSignature.js';

const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * The cross-field rules of a signature scheme; each returned string is one problem.
 * @example checkSignatureScheme({ format: 'keyed' }) // ['format "keyed" needs digestKey ...']
 */
export function checkSignatureScheme(scheme: WebhookSignatureScheme): string[] {
  const problems: string[] = [];
  const keyed = scheme.format === 'keyed';
  if (!keyed && scheme.digestKey !== undefined) {
    problems.push('digestKey is only used with format "keyed"; set format: "keyed" or remove digestKey');
  }
  if (!keyed && scheme.timestampKey !== undefined) {
    problems.push(
      'timestampKey is only used with format "keyed"; set format: "keyed" or use timestampHeader',
    );
  }
  if (keyed && scheme.digestKey === undefined) {
    problems.push(
      'format "keyed" needs digestKey, the key whose values are digests (for example "v1" in "t=...,v1=...")',
    );
  }
  const hasTimestampKey = keyed && scheme.timestampKey !== undefined;
  if (scheme.timestampKey !== undefined && scheme.timestampHeader !== undefined) {
    problems.push('timestampKey and timestampHeader are both set; keep one timestamp source');
  }
  const hasTimestamp = hasTimestampKey || scheme.timestampHeader !== undefined;
  if (scheme.toleranceSeconds !== undefined && !hasTimestamp) {
    problems.push('toleranceSeconds needs a timestamp source; add timestampKey (keyed) or timestampHeader');
  }
  if (scheme.signedPayload !== undefined) {
    const placeholders = [...scheme.signedPayload.matchAll(PLACEHOLDER)].map((match) => match[1]);
    if (!placeholders.includes('body')) {
      problems.push(`signedPayload "${scheme.signedPayload}" must contain {body}`);
    }
    if (placeholders.includes('timestamp') && !hasTimestamp) {
      problems.push(
        'signedPayload uses {timestamp} but no timestamp source is set; add timestampKey (keyed) or timestampHeader',
      );
    }
    const unknown = placeholders.filter((name) => name !== 'body' && name !== 'timestamp');
    if (unknown.length > 0) {
      problems.push(
        `signedPayload has unknown placeholder(s) ${unknown.map((name) => `{${name}}`).join(', ')}; only {timestamp} and {body} are replaced`,
      );
    }
  }
  return problems;
}
