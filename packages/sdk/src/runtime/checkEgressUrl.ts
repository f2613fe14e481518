import { isEgressAllowed } from '@platform/integration-schema';
import { EgressDeniedError } from '../integration/errors.js';
import { redactUrl } from './redact.js';

/** Who checks a URL, as its refusals name it and tag it. */
export interface CheckEgressUrlOptions {
  /** How messages name the caller: `ctx.fetch` on the guest side, `fetch` on the server side. */
  readonly caller: string;
  /** The URL is a redirect target: messages say so. */
  readonly redirect?: boolean;
  /** `EgressDeniedError.reason` when the origin is outside egress (scheme and credential refusals say `scheme` / `credentials`). */
  readonly egressReason?: string;
}

/**
 * The egress rule for one hop, the same on both sides of the capability boundary (the server
 * checks again: the guest is not trusted to have done so): http(s) only, no credentials in the
 * URL, origin within `egress`. Returns the parsed URL; throws a `TypeError` for a URL that is not
 * absolute and an `EgressDeniedError` (`reason` `scheme`, `credentials` or `egressReason`) for a
 * refusal, naming the URL with its query redacted.
 * @example const url = checkEgressUrl('https://api.acme.com/v1', ['https://api.acme.com'], { caller: 'fetch', egressReason: 'egress' });
 */
export function checkEgressUrl(
  raw: string | URL,
  egress: readonly string[],
  options: CheckEgressUrlOptions,
): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`${options.caller} needs an absolute URL; received "${redactUrl(raw)}"`);
  }
  const subject = `${options.caller} to ${redactUrl(url)}${options.redirect ? ' (redirect target)' : ''}`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new EgressDeniedError(url.origin, `${subject} refused: only http(s) URLs can be fetched`, 'scheme');
  }
  if (url.username !== '' || url.password !== '') {
    throw new EgressDeniedError(
      url.origin,
      `${subject} refused: the URL carries credentials; send them in a header instead`,
      'credentials',
    );
  }
  if (!isEgressAllowed(url, egress)) {
    throw new EgressDeniedError(
      url.origin,
      `${subject} refused: ${url.origin} is not in this integration's egress; add it to egress in the definition`,
      options.egressReason,
    );
  }
  return url;
}
