import type { HostServices } from '../HostServices.js';
import { newId } from '../store/ids.js';
import { findClient, type StoredClient, saveClient } from './grants.js';

// Who an MCP client is: registered here (RFC 7591, public clients: no secret, PKCE instead) or
// an https URL whose JSON document describes it (client ID metadata document), fetched through
// the host's egress-checked fetch (no private addresses), small and quick.

/** Largest client ID metadata document read. */
export const METADATA_DOCUMENT_BYTES = 16_384;
/** How long fetching a client ID metadata document may take. */
export const METADATA_DOCUMENT_TIMEOUT_MS = 5_000;

/** A client's problem, as RFC 7591 3.2.2 names it. */
export class ClientError extends Error {
  constructor(
    readonly code: 'invalid_redirect_uri' | 'invalid_client_metadata' | 'invalid_client',
    message: string,
  ) {
    super(message);
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Whether a redirect URI may receive codes: https, or http to a loopback address only (a native
 * client listening on this machine, RFC 8252 7.3); never a fragment.
 * @example redirectUriProblem('http://example.com/cb') // 'http is allowed for loopback only ...'
 */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return 'a redirect URI must be a string';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URL`;
  }
  if (url.hash !== '' || uri.includes('#')) return `"${uri}" has a fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `"${uri}" must be https, or http to 127.0.0.1, [::1] or localhost`;
}

function checkedRedirectUris(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 10) {
    throw new ClientError('invalid_redirect_uri', 'redirect_uris must list 1 to 10 redirect URIs.');
  }
  for (const uri of value) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw new ClientError('invalid_redirect_uri', `redirect_uris: ${problem}.`);
  }
  return value as string[];
}

function clientName(value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 200) {
    throw new ClientError(
      'invalid_client_metadata',
      'client_name must be a non-empty string of at most 200 characters.',
    );
  }
  return value.trim();
}

/** RFC 7591 registration of a public client; answers its client information (no secret). */
export async function registerClient(
  services: HostServices,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const redirectUris = checkedRedirectUris(body.redirect_uris);
  const method = body.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw new ClientError(
      'invalid_client_metadata',
      'token_endpoint_auth_method must be "none": clients here are public and prove themselves with PKCE.',
    );
  }
  const grants = body.grant_types;
  if (
    grants !== undefined &&
    (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
  ) {
    throw new ClientError(
      'invalid_client_metadata',
      'grant_types may be authorization_code and refresh_token only.',
    );
  }
  const client: StoredClient = {
    id: `mcp_${newId()}`,
    name: clientName(body.client_name, 'An MCP client'),
    redirectUris,
    metadataDocument: false,
  };
  await saveClient(services.db, client);
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(services.now().getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

/** Whether a client_id is a client ID metadata document's URL. */
export const isMetadataDocumentId = (clientId: string): boolean => clientId.startsWith('https://');

/**
 * The client a client_id names: a registered one, or (an https URL) the document it points at,
 * fetched again at each authorization and stored for the token endpoint.
 */
export async function resolveClient(services: HostServices, clientId: string): Promise<StoredClient> {
  if (!isMetadataDocumentId(clientId)) {
    const found = await findClient(services.db, clientId);
    if (found === undefined || found.metadataDocument) {
      throw new ClientError(
        'invalid_client',
        `No client "${clientId}" is registered here; register it at /oauth/register.`,
      );
    }
    return found;
  }
  const document = await fetchMetadataDocument(services, clientId);
  if (document.client_id !== clientId) {
    throw new ClientError('invalid_client_metadata', `The document at ${clientId} names another client_id.`);
  }
  const client: StoredClient = {
    id: clientId,
    name: clientName(document.client_name, new URL(clientId).host),
    redirectUris: checkedRedirectUris(document.redirect_uris),
    metadataDocument: true,
  };
  await saveClient(services.db, client);
  return client;
}

async function fetchMetadataDocument(services: HostServices, url: string): Promise<Record<string, unknown>> {
  const origin = new URL(url).origin;
  const fail = (why: string) =>
    new ClientError('invalid_client', `The client ID metadata document at ${url} ${why}.`);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(fail(`did not arrive within ${METADATA_DOCUMENT_TIMEOUT_MS} ms`)),
      METADATA_DOCUMENT_TIMEOUT_MS,
    );
  });
  let response: Awaited<ReturnType<HostServices['fetch']>>;
  try {
    response = await Promise.race([
      services.fetch({ url, method: 'GET', headers: [['accept', 'application/json']], body: null }, [origin]),
      timeout,
    ]);
  } catch (error) {
    if (error instanceof ClientError) throw error;
    throw fail('could not be fetched (the host reaches public https addresses only)');
  } finally {
    clearTimeout(timer);
  }
  if (response.status !== 200) throw fail(`answered ${response.status}`);
  const bytes = Buffer.from(response.body, 'base64');
  if (bytes.byteLength > METADATA_DOCUMENT_BYTES)
    throw fail(`is larger than ${METADATA_DOCUMENT_BYTES} bytes`);
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw fail('is not a JSON object');
}
