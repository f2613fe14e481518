import { isEgressAllowed } from '@platform/integration-schema';
import { EgressDeniedError } from '@platform/sdk/integration';
import { redactUrl } from '@platform/sdk/runtime';

/**
 * The parsed URL of a hop the host may send, checked as the guest checks it (the guest is not
 * trusted to have done so): http(s) only, no credentials in the URL, origin within `egress`.
 * Throws `EgressDeniedError` with `reason` `scheme`, `credentials` or `egress`.
 */
export function checkRequestUrl(raw: string, egress: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`fetch needs an absolute URL; received "${redactUrl(raw)}"`);
  }
  const shown = redactUrl(url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new EgressDeniedError(
      url.origin,
      `fetch to ${shown} refused: only http(s) URLs can be fetched`,
      'scheme',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new EgressDeniedError(
      url.origin,
      `fetch to ${shown} refused: the URL carries credentials; send them in a header instead`,
      'credentials',
    );
  }
  if (!isEgressAllowed(url, egress)) {
    throw new EgressDeniedError(
      url.origin,
      `fetch to ${shown} refused: ${url.origin} is not in this integration's egress; add it to egress in the definition`,
      'egress',
    );
  }
  return url;
}
