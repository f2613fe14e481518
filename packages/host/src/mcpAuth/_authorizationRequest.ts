import type { Context } from 'hono';
import type { HostServices } from '../HostServices.js';
import { hostOrigin } from '../routes/_auth.js';
import { limitPerAddress } from '../routes/_limitPerMinute.js';
import { ClientError, isMetadataDocumentId, resolveClient } from './clients.js';
import type { StoredClient } from './grants.js';

/** An authorization request (RFC 6749 4.1.1 with PKCE and `resource`) that may proceed. */
export interface AuthorizationRequest {
  readonly client: StoredClient;
  readonly redirectUri: string;
  readonly state: string | undefined;
  readonly codeChallenge: string;
  readonly resource: string;
}

/**
 * Why a request is refused. `redirect`: the client and its redirect URI are known, so the error
 * goes back to the client (RFC 6749 4.1.2.1); otherwise the person is told, never redirected.
 */
export class AuthorizationRefusal extends Error {
  constructor(
    readonly error: string,
    message: string,
    readonly redirect: { uri: string; state: string | undefined } | undefined,
  ) {
    super(message);
  }

  /** Where the browser goes with the error, when it may go back to the client. */
  location(): string | undefined {
    if (this.redirect === undefined) return undefined;
    return errorRedirect(this.redirect.uri, this.error, this.message, this.redirect.state);
  }
}

/** The client's redirect URI with `error` (and `state`) in its query. */
export function errorRedirect(
  uri: string,
  error: string,
  description: string,
  state: string | undefined,
): string {
  const url = new URL(uri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state !== undefined) url.searchParams.set('state', state);
  return url.toString();
}

/** Client ID metadata documents fetched for one client address a minute (anyone may ask). */
export const METADATA_FETCHES_PER_MINUTE = 30;

/** The one resource this host's tokens are for. */
export const mcpResource = (services: HostServices, c: Context): string => `${hostOrigin(services, c)}/mcp`;

/**
 * Checks an authorization request's query: the client (registered or its metadata document),
 * the exact redirect URI, `response_type=code`, PKCE S256, and `resource` naming `<base>/mcp`.
 */
export async function authorizationRequest(
  services: HostServices,
  c: Context,
  query: URLSearchParams,
): Promise<AuthorizationRequest> {
  const clientId = query.get('client_id') ?? '';
  const redirectUri = query.get('redirect_uri') ?? '';
  if (clientId === '') throw new AuthorizationRefusal('invalid_request', 'client_id is missing.', undefined);
  if (isMetadataDocumentId(clientId)) {
    await limitPerAddress(services, c, {
      name: 'mcp_metadata_fetches',
      limit: METADATA_FETCHES_PER_MINUTE,
      what: 'client ID metadata document fetches',
      hint: (seconds) => `Wait ${seconds} seconds, then open the authorization link again.`,
    });
  }
  let client: StoredClient;
  try {
    client = await resolveClient(services, clientId);
  } catch (error) {
    if (error instanceof ClientError)
      throw new AuthorizationRefusal('invalid_client', error.message, undefined);
    throw error;
  }
  if (!client.redirectUris.includes(redirectUri)) {
    throw new AuthorizationRefusal(
      'invalid_request',
      `redirect_uri "${redirectUri}" is not one the client registered (it must match exactly).`,
      undefined,
    );
  }
  const state = query.get('state') ?? undefined;
  const refuse = (error: string, message: string) =>
    new AuthorizationRefusal(error, message, { uri: redirectUri, state });
  if (query.get('response_type') !== 'code')
    throw refuse('unsupported_response_type', 'response_type must be "code".');
  const codeChallenge = query.get('code_challenge') ?? '';
  if (query.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
    throw refuse(
      'invalid_request',
      'PKCE is required: send code_challenge (S256 of the verifier) with code_challenge_method=S256.',
    );
  }
  const resource = mcpResource(services, c);
  if (query.get('resource') !== resource) {
    throw refuse(
      'invalid_target',
      `resource must be ${resource}: tokens here are for the MCP endpoint only.`,
    );
  }
  return { client, redirectUri, state, codeChallenge, resource };
}
