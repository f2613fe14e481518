import type { OAuthErrorCode } from './OAuthFailure.js';

/**
 * The callback code for an `error` the provider sent back instead of a code (RFC 6749 4.1.2.1):
 * the user said no, the provider refused the app itself, or anything else.
 * @example providerErrorCode('access_denied') // 'denied'
 */
export function providerErrorCode(error: string): OAuthErrorCode {
  if (error === 'access_denied') return 'denied';
  if (error === 'invalid_scope' || error === 'unauthorized_client') return 'app_not_set_up';
  return 'provider_error';
}
