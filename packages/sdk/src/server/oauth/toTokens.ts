import type { Tokens } from '@platform/sdk/integration';

const MAPPED = new Set(['access_token', 'refresh_token', 'expires_in', 'scope', 'token_type']);

/**
 * The Tokens object `onTokens` receives, from a token endpoint response (RFC 6749 5.1):
 * `expires_in` seconds become an ISO `expiresAt` counted from `now`; every field not mapped is
 * passed verbatim in `raw`. Undefined when there is no usable `access_token`.
 * @example toTokens({ access_token: 'at', expires_in: 3600, team: 'T1' }, now) // { accessToken: 'at', expiresAt: '...', raw: { team: 'T1' } }
 */
export function toTokens(response: Record<string, unknown>, now: Date): Tokens | undefined {
  const accessToken = response.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') return undefined;
  const expiresIn =
    typeof response.expires_in === 'string' ? Number(response.expires_in) : response.expires_in;
  // Some providers send the granted scopes as a list; the Tokens object carries a string.
  const scope = Array.isArray(response.scope) ? response.scope.join(' ') : response.scope;
  const raw = Object.fromEntries(Object.entries(response).filter(([key]) => !MAPPED.has(key)));
  return {
    accessToken,
    ...(typeof response.refresh_token === 'string' ? { refreshToken: response.refresh_token } : {}),
    ...(typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
      ? { expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString() }
      : {}),
    ...(typeof scope === 'string' ? { scope } : {}),
    ...(typeof response.token_type === 'string' ? { tokenType: response.token_type } : {}),
    ...(Object.keys(raw).length > 0 ? { raw } : {}),
  };
}
