import { type FetchFunction, getRoute } from './_requestRoute.js';
import { integrationRoutePath } from './_routePath.js';
import { IntegrationRequestError } from './IntegrationActionError.js';
import type { AccountOptions } from './integrationActionUrl.js';

/**
 * The path of an integration's OAuth connect route, to pass as `OAuthActivationForm`'s
 * `connectPath` (the form adds `accountId` and `returnPath`).
 * @example partnerOAuthConnectPath('acme-notes') // '/api/integrations/acme-notes/oauth/connect'
 */
export function partnerOAuthConnectPath(slug: string): string {
  return integrationRoutePath(slug, 'oauth/connect');
}

/**
 * The URL of an integration's OAuth status route for one account.
 * @example partnerOAuthStatusUrl('acme-notes', { accountId: 'a1' }) // '/api/integrations/acme-notes/oauth/status?accountId=a1'
 */
export function partnerOAuthStatusUrl(slug: string, options: AccountOptions): string {
  return `${integrationRoutePath(slug, 'oauth/status')}?${new URLSearchParams({ accountId: options.accountId })}`;
}

/** What the status route reports for one account. */
export interface PartnerConnectionStatus {
  readonly connected: boolean;
  /** ISO 8601, when connected. */
  readonly connectedAt?: string;
  /** The scopes granted, as the provider reported them. */
  readonly scope?: string;
}

/** Asks the status route whether an account is connected; rejects with an `IntegrationRequestError`. */
export type PartnerConnectionCheck = (
  accountId: string,
  options?: { readonly fetch?: FetchFunction; readonly signal?: AbortSignal },
) => Promise<PartnerConnectionStatus>;

/**
 * A connection check over an integration's OAuth status route, to pass as `OAuthActivationForm`'s
 * `checkConnection` (the form passes `useIntegrationFetch()` as `fetch`).
 * @example const { connected } = await createPartnerConnectionCheck('acme-notes')('a1');
 */
export function createPartnerConnectionCheck(slug: string): PartnerConnectionCheck {
  return async (accountId, options = {}) => {
    const what = `The OAuth status route of "${slug}"`;
    const result = await getRoute(partnerOAuthStatusUrl(slug, { accountId }), options, what);
    if (!result.ok) throw new IntegrationRequestError(result.error);
    const status = readStatus(result.data);
    if (status === null) {
      throw new IntegrationRequestError({
        code: 'invalid_response',
        status: result.status,
        message: `${what} answered HTTP ${result.status} with data that is not a connection status; expected { connected: boolean, connectedAt?: string, scope?: string }.`,
      });
    }
    return status;
  };
}

function readStatus(data: unknown): PartnerConnectionStatus | null {
  if (typeof data !== 'object' || data === null) return null;
  const { connected, connectedAt, scope } = data as Record<string, unknown>;
  if (typeof connected !== 'boolean') return null;
  if (connectedAt !== undefined && connectedAt !== null && typeof connectedAt !== 'string') return null;
  if (scope !== undefined && scope !== null && typeof scope !== 'string') return null;
  return {
    connected,
    ...(typeof connectedAt === 'string' ? { connectedAt } : {}),
    ...(typeof scope === 'string' ? { scope } : {}),
  };
}
