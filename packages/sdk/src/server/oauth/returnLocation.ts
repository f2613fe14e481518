import type { OAuthErrorCode } from './OAuthFailure.js';

/**
 * Where the callback sends the user: the return path with `<slug>_oauth_error=<code>` appended,
 * or without any such parameter on success (a stale one from an earlier attempt is dropped). The
 * rest of the return path's query and its fragment are kept verbatim.
 * @example returnLocation('/apps?tab=acme', 'acme', 'denied') // '/apps?tab=acme&acme_oauth_error=denied'
 */
export function returnLocation(returnPath: string, slug: string, code?: OAuthErrorCode): string {
  const param = `${slug}_oauth_error`;
  const hashAt = returnPath.indexOf('#');
  const beforeHash = hashAt === -1 ? returnPath : returnPath.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : returnPath.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const pairs = (queryAt === -1 ? '' : beforeHash.slice(queryAt + 1))
    .split('&')
    .filter((pair) => pair !== '' && pair !== param && !pair.startsWith(`${param}=`));
  if (code !== undefined) pairs.push(`${param}=${code}`);
  return `${path}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}${hash}`;
}
