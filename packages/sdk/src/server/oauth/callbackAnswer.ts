import { redactText } from '@platform/sdk/runtime';
import { type OAuthErrorCode, OAuthFailure } from './OAuthFailure.js';
import { providerErrorCode } from './providerErrorCode.js';

/**
 * The authorization code of a callback (RFC 6749 4.1.2), once the state has been checked: an
 * `error` from the provider becomes its callback code (`denied`, `app_not_set_up`,
 * `provider_error`), a missing code `invalid`. The provider's error value is logged only when it
 * looks like one (`[\w.-]{1,64}`).
 * @example const code = authorizationCode({ error: c.req.query('error'), code: c.req.query('code') });
 */
export function authorizationCode(query: { error: string | undefined; code: string | undefined }): string {
  const { error, code } = query;
  if (error !== undefined) {
    throw new OAuthFailure(providerErrorCode(error), 'the provider answered with an error', {
      providerError: /^[\w.-]{1,64}$/.test(error) ? error : '(unrecognised)',
    });
  }
  if (code === undefined || code === '')
    throw new OAuthFailure('invalid', 'the provider sent neither code nor error');
  return code;
}

/**
 * Any throw of a callback as an `OAuthFailure`: itself, or `fallback` (what an unexpected throw
 * means at that step: `invalid` before the exchange, `save_failed` after it) with the redacted message.
 * @example const failure = asOAuthFailure(error, exchanged ? 'save_failed' : 'invalid');
 */
export function asOAuthFailure(error: unknown, fallback: OAuthErrorCode): OAuthFailure {
  if (error instanceof OAuthFailure) return error;
  return new OAuthFailure(fallback, 'the callback failed unexpectedly', {
    reason: redactText(error instanceof Error ? error.message : String(error)),
  });
}
