import type { EgressDeniedError, Tokens } from '@platform/sdk/integration';
import type { EgressFetch } from '../egress/EgressFetch.js';
import type { ClientCredentials } from './ClientCredentials.js';
import { OAuthFailure } from './OAuthFailure.js';
import { providerError, tokenRequest } from './tokenRequest.js';
import { toTokens } from './toTokens.js';

/**
 * Redeems an authorization code at the token endpoint (RFC 6749 4.1.3) through the integration's
 * egress-checked fetch: one hop, no redirects. The client authenticates with HTTP Basic
 * (`client_secret_basic`) or in the form body (`client_secret_post`). Any failure is
 * `OAuthFailure('exchange_failed')` whose log fields hold the provider's status, `error` and
 * `error_description` only: never a token, the code or a secret.
 * @example const tokens = await exchangeCode(egressFetch, { tokenUrl, tokenAuthMethod, egress, credentials, code, redirectUri, codeVerifier, now });
 */
export async function exchangeCode(
  fetch: EgressFetch,
  input: {
    tokenUrl: string;
    tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
    egress: readonly string[];
    credentials: ClientCredentials;
    code: string;
    redirectUri: string;
    codeVerifier: string | undefined;
    now: Date;
    /** Told when the token endpoint's name resolved to a non-public address (a security event). */
    onPrivateAddress?: (error: EgressDeniedError) => void;
  },
): Promise<Tokens> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
  });
  if (input.codeVerifier !== undefined) form.set('code_verifier', input.codeVerifier);
  const answer = await tokenRequest(fetch, { ...input, form });
  if (!answer.reached) {
    // The fetch's own messages name the origin with its query redacted, never the body.
    throw new OAuthFailure('exchange_failed', 'the token endpoint could not be reached', {
      reason: answer.reason,
    });
  }
  const { status, body } = answer;
  const tokens = status >= 200 && status < 300 && body !== undefined ? toTokens(body, input.now) : undefined;
  if (tokens === undefined) {
    throw new OAuthFailure('exchange_failed', 'the token endpoint refused the code exchange', {
      status,
      ...providerError(body),
    });
  }
  return tokens;
}
