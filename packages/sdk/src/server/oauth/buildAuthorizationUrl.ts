/**
 * The provider's authorization request (RFC 6749 4.1.1, RFC 7636 4.3): the declared endpoint with
 * its own query kept, plus `response_type=code`, the client, the redirect URI, space-joined scopes,
 * the state and, with PKCE, the S256 challenge.
 * @example buildAuthorizationUrl({ authorizationUrl, clientId, redirectUri, scopes: ['read'], state, codeChallenge: undefined })
 */
export function buildAuthorizationUrl(input: {
  authorizationUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  state: string;
  codeChallenge: string | undefined;
}): string {
  const url = new URL(input.authorizationUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', input.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('scope', input.scopes.join(' '));
  url.searchParams.set('state', input.state);
  if (input.codeChallenge !== undefined) {
    url.searchParams.set('code_challenge', input.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}
