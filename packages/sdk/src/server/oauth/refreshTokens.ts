import type { EgressDeniedError, Tokens } from '@platform/sdk/integration';
import type { EgressFetch } from '../egress/EgressFetch.js';
import type { ClientCredentials } from './ClientCredentials.js';
import { providerError, tokenRequest } from './tokenRequest.js';
import { toTokens } from './toTokens.js';

/**
 * A refresh grant that did not give a new access token. `revoked`: the provider refused the
 * refresh token itself (`invalid_grant`, RFC 6749 5.2): asking again cannot help, the account
 * has to connect again. `failed`: anything else (unreachable, a 5xx, `invalid_client`, an answer
 * without an access token), worth another try later. `status`, `error` and `errorDescription`
 * are the provider's (the description redacted); the message never holds a token or secret.
 */
export class TokenRefreshError extends Error {
  override readonly name = 'TokenRefreshError';

  constructor(
    readonly kind: 'revoked' | 'failed',
    message: string,
    readonly fields: {
      readonly status?: number;
      readonly error?: string;
      readonly errorDescription?: string;
      readonly reason?: string;
    } = {},
  ) {
    super(message);
  }
}

/**
 * The refresh grant (RFC 6749 6) at the token endpoint through the integration's egress-checked
 * fetch, with the same client authentication as `exchangeCode` (HTTP Basic or the form body).
 * Answers the new Tokens; a provider that does not rotate sends no `refresh_token`, and then the
 * Tokens carry none (keeping the old one is the caller's rule). `scope` asks for a narrower scope
 * (left out: the one granted). Throws {@link TokenRefreshError}.
 * @example const tokens = await refreshTokens(egressFetch, { tokenUrl, tokenAuthMethod, egress, credentials, refreshToken, now: new Date() });
 */
export async function refreshTokens(
  fetch: EgressFetch,
  input: {
    tokenUrl: string;
    tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
    egress: readonly string[];
    credentials: ClientCredentials;
    refreshToken: string;
    scope?: string | undefined;
    now: Date;
    /** Told when the token endpoint's name resolved to a non-public address (a security event). */
    onPrivateAddress?: (error: EgressDeniedError) => void;
  },
): Promise<Tokens> {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: input.refreshToken });
  if (input.scope !== undefined) form.set('scope', input.scope);
  const answer = await tokenRequest(fetch, { ...input, form });
  if (!answer.reached) {
    throw new TokenRefreshError('failed', 'the token endpoint could not be reached', {
      reason: answer.reason,
    });
  }
  const { status, body } = answer;
  const tokens = status >= 200 && status < 300 && body !== undefined ? toTokens(body, input.now) : undefined;
  if (tokens !== undefined) return tokens;
  const fields = { status, ...providerError(body) };
  if (fields.error === 'invalid_grant') {
    throw new TokenRefreshError('revoked', 'the provider refused the refresh token (invalid_grant)', fields);
  }
  throw new TokenRefreshError(
    'failed',
    status >= 200 && status < 300
      ? 'the token endpoint answered without an access token'
      : `the token endpoint refused the refresh (${status}${fields.error === undefined ? '' : ` ${fields.error}`})`,
    fields,
  );
}
