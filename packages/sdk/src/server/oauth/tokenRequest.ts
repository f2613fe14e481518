import { EgressDeniedError } from '@platform/sdk/integration';
import { capabilityHeader, redactText } from '@platform/sdk/runtime';
import type { EgressFetch } from '../egress/EgressFetch.js';
import type { ClientCredentials } from './ClientCredentials.js';

// RFC 6749 2.3.1: id and secret are form-urlencoded before they are joined for HTTP Basic.
const formEncode = (value: string) => new URLSearchParams([['', value]]).toString().slice(1);

/** How a token endpoint request ended: an answer (any status, body parsed when it could be), or no answer. */
export type TokenEndpointAnswer =
  | { readonly reached: true; readonly status: number; readonly body: Record<string, unknown> | undefined }
  | { readonly reached: false; readonly reason: string };

/**
 * One POST of `form` to a token endpoint through the egress-checked fetch, the client
 * authenticated with HTTP Basic (`client_secret_basic`) or in the form body
 * (`client_secret_post`): the part the code exchange and the refresh grant share. The reason of
 * an unreached endpoint is the fetch's own message, redacted (it never holds the body).
 */
export async function tokenRequest(
  fetch: EgressFetch,
  input: {
    tokenUrl: string;
    tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
    egress: readonly string[];
    credentials: ClientCredentials;
    form: URLSearchParams;
    onPrivateAddress?: ((error: EgressDeniedError) => void) | undefined;
  },
): Promise<TokenEndpointAnswer> {
  const form = new URLSearchParams(input.form);
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
    return { reached: false, reason: redactText((error as Error).message ?? String(error)) };
  }
  return { reached: true, status: response.status, body: parseBody(response) };
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

/** Only the RFC 6749 5.2 error fields, trimmed: whatever else a provider echoes back stays out of logs. */
export function providerError(body: Record<string, unknown> | undefined): {
  error?: string;
  errorDescription?: string;
} {
  const fields: { error?: string; errorDescription?: string } = {};
  if (typeof body?.error === 'string') fields.error = body.error.slice(0, 100);
  if (typeof body?.error_description === 'string')
    fields.errorDescription = redactText(body.error_description.slice(0, 300));
  return fields;
}
