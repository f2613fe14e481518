import type { OAuthCallbackErrorCode } from '@platform/sdk/runtime';

/** The codes of the spec's OAuth callback table, sent back as `<slug>_oauth_error=<code>` (`OAUTH_CALLBACK_ERROR_CODES`). */
export type OAuthErrorCode = OAuthCallbackErrorCode;

/**
 * Ends a connect or callback with a redirect to the return path carrying `code`. The message and
 * `fields` go to the server's log only, so they must never hold a token, code, secret or state.
 * @example throw new OAuthFailure('not_configured', 'the client id secret "ACME_CLIENT_ID" is not set');
 */
export class OAuthFailure extends Error {
  override readonly name = 'OAuthFailure';

  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    readonly fields: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}
