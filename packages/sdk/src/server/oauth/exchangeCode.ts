import { EgressDeniedError, type Tokens } from '@platform/sdk/integration';
import { capabilityHeader, redactText } from '@platform/sdk/runtime';
import type { EgressFetch } from '../egress/EgressFetch.js';
import type { ClientCredentials } from './ClientCredentials.js';
import { OAuthFailure } from './OAuthFailure.js';
import { toTokens } from './toTokens.js';

// RFC 6749 2.3.1: id and secret are form-urlencoded before they are joined for HTTP Basic.
const formEncode = (value: string) => new URLSearchParams([['', value]]).toString().slice(1);

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
  const headers: [string, string][] = [
    ['content-type', 'application/x-www-form-urlencoded'],
    ['accept', 'application/json'],
  ];
  if (input.tokenAuthMethod === 'client_secret_post') {
    form.set('client_id', input.credentials.clientId);
    form.set('client_secret', input.credentials.clientSecret);
  } else {
    const basic = `${formEncode(input.credentials.clientId)}:${formEncode(input.credentials.clientSecret)}`;
    headers.push(['authorization', `Basic ${Buffer.from(basic, 'utf8').toString('base64')}`]);
  }

  let response: Awaited<ReturnType<EgressFetch>>;
  try {
    response = await fetch(
      {
        url: input.tokenUrl,
        method: 'POST',
        headers,
        body: Buffer.from(form.toString(), 'utf8').toString('base64'),
      },
      input.egress,
    );
  } catch (error) {
    if (error instanceof EgressDeniedError && error.reason === 'private-address')
      input.onPrivateAddress?.(error);
    // The fetch's own messages name the origin with its query redacted, never the body.
    throw new OAuthFailure('exchange_failed', 'the token endpoint could not be reached', {
      reason: redactText((error as Error).message ?? String(error)),
    });
  }

  const body = parseBody(response);
  const tokens =
    response.status >= 200 && response.status < 300 && body !== undefined
      ? toTokens(body, input.now)
      : undefined;
  if (tokens === undefined) {
    throw new OAuthFailure('exchange_failed', 'the token endpoint refused the code exchange', {
      status: response.status,
      ...providerError(body),
    });
  }
  return tokens;
}

function parseBody(response: Awaited<ReturnType<EgressFetch>>): Record<string, unknown> | undefined {
  const text = Buffer.from(response.body, 'base64').toString('utf8');
  const type = capabilityHeader(response, 'content-type') ?? '';
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    // Some providers answer form-encoded unless they honour Accept.
    return /application\/x-www-form-urlencoded/i.test(type)
      ? Object.fromEntries(new URLSearchParams(text))
      : undefined;
  }
}

// Only the RFC 6749 5.2 error fields, trimmed: whatever else a provider echoes back stays out of logs.
function providerError(body: Record<string, unknown> | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  if (typeof body?.error === 'string') fields.error = body.error.slice(0, 100);
  if (typeof body?.error_description === 'string')
    fields.errorDescription = redactText(body.error_description.slice(0, 300));
  return fields;
}
