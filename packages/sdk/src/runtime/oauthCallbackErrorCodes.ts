/**
 * The codes of the spec's OAuth callback table, which the callback sends back to the return path
 * as `<slug>_oauth_error=<code>`: the one list the server's failures and the widgets' messages
 * are both typed from.
 */
export const OAUTH_CALLBACK_ERROR_CODES = [
  'denied',
  'provider_error',
  'expired',
  'invalid',
  'unauthorized',
  'not_configured',
  'exchange_failed',
  'save_failed',
  'wrong_workspace',
  'app_not_set_up',
  'organization_access',
] as const;

/** A code of the OAuth callback's error parameter. */
export type OAuthCallbackErrorCode = (typeof OAUTH_CALLBACK_ERROR_CODES)[number];

const CODES: ReadonlySet<string> = new Set(OAUTH_CALLBACK_ERROR_CODES);

/**
 * True when `code` is one of the OAuth callback's error codes.
 * @example isOAuthCallbackErrorCode('denied') // true
 */
export function isOAuthCallbackErrorCode(code: string): code is OAuthCallbackErrorCode {
  return CODES.has(code);
}
