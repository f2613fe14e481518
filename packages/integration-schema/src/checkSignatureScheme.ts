import { isHeaderName, SIGNED_PAYLOAD_PLACEHOLDERS, signedPayloadParts } from './signedPayload.js';
import type { WebhookSignatureScheme } from './webhookSignature.js';

const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * The cross-field rules of a signature scheme; each returned string is one problem.
 * @example checkSignatureScheme({ format: 'keyed' }) // ['format "keyed" needs digestKey ...']
 */
export function checkSignatureScheme(scheme: WebhookSignatureScheme): string[] {
  const problems: string[] = [];
  const keyed = scheme.format === 'keyed';
  const versioned = scheme.format === 'versioned';
  if (!keyed && !versioned && scheme.digestKey !== undefined) {
    problems.push(
      'digestKey is only used with format "keyed" or "versioned"; set one of them or remove digestKey',
    );
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
  if (versioned && scheme.digestKey === undefined) {
    problems.push(
      'format "versioned" needs digestKey, the version whose entries are digests (for example "v1" in "v1,<digest> v1,<digest>")',
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
  if (scheme.timestampUnit !== undefined && !hasTimestamp) {
    problems.push('timestampUnit needs a timestamp source; add timestampKey (keyed) or timestampHeader');
  }
  if (scheme.signedPayload !== undefined)
    problems.push(...checkSignedPayload(scheme.signedPayload, hasTimestamp));
  return problems;
}

function checkSignedPayload(template: string, hasTimestamp: boolean): string[] {
  const problems: string[] = [];
  const parts = signedPayloadParts(template);
  if (!parts.some((part) => part.kind === 'body')) {
    problems.push(`signedPayload "${template}" must contain {body}`);
  }
  if (parts.some((part) => part.kind === 'timestamp') && !hasTimestamp) {
    problems.push(
      'signedPayload uses {timestamp} but no timestamp source is set; add timestampKey (keyed) or timestampHeader',
    );
  }
  const unknown: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!name.startsWith('header:')) {
      if (!['body', 'timestamp', 'method', 'url'].includes(name)) unknown.push(match[0]);
      continue;
    }
    const header = name.slice('header:'.length);
    if (header === '') {
      problems.push(
        "signedPayload placeholder {header:} names no header; write the header's name, for example {header:webhook-id}",
      );
    } else if (!isHeaderName(header)) {
      problems.push(
        `signedPayload placeholder ${match[0]} names an invalid header "${header}"; a header name has letters, digits and !#$%&'*+.^_\`|~- only`,
      );
    }
  }
  if (unknown.length > 0) {
    problems.push(
      `signedPayload has unknown placeholder(s) ${unknown.join(', ')}; only ${listed(SIGNED_PAYLOAD_PLACEHOLDERS)} are replaced`,
    );
  }
  return problems;
}

const listed = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
