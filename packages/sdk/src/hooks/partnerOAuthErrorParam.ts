import { isOAuthCallbackErrorCode, type OAuthCallbackErrorCode } from '../runtime/oauthCallbackErrorCodes.js';

/**
 * What the OAuth callback appends as `<slug>_oauth_error=<code>` when a connection fails, each with
 * the message a person sees (typographic apostrophes, as the spec asks).
 */
export const OAUTH_CALLBACK_ERROR_MESSAGES = {
  denied:
    'Access wasn’t granted at the provider, so nothing was connected. Connect again and approve the request.',
  provider_error:
    'The provider refused the connection request, and retrying won’t help. Ask a workspace admin to check the integration’s setup with the provider.',
  expired: 'The connection attempt expired before it finished. Start it again.',
  invalid: 'The connection attempt couldn’t be verified. Start it again from this page.',
  unauthorized:
    'You aren’t signed in as the person who started the connection. Sign in as that person, or start the connection again yourself.',
  not_configured:
    'The integration’s client credentials aren’t configured for this workspace. Ask a workspace admin to add them, then connect again.',
  exchange_failed:
    'The provider rejected the code exchange. Ask a workspace admin to check the client credentials; the provider’s response is in the logs.',
  save_failed: 'The account was connected, but its credentials couldn’t be saved. Connect again.',
  wrong_workspace:
    'Consent was given in a different account or workspace than the one configured. Connect again and choose the configured workspace.',
  app_not_set_up:
    'The provider refused the OAuth app (its client or scopes), so the app isn’t set up yet. Ask a workspace admin to finish the app’s setup with the provider.',
  organization_access:
    'Organization-wide access was granted, but only personal access is accepted. Connect again and grant access to your personal account only.',
} as const satisfies Record<OAuthCallbackErrorCode, string>;

/** The error a return URL carries: its code and the message to show. */
export interface PartnerOAuthError {
  /** As found in the URL; a code this version does not know keeps its text and gets a generic message. */
  readonly code: string;
  readonly message: string;
}

/** An integration's OAuth error parameter: its name, and how to read and word it. */
export interface PartnerOAuthErrorParam {
  /** `<slug>_oauth_error`. */
  readonly name: string;
  /** The message for a code; a code this version does not know gets a generic message naming it. */
  readonly messageFor: (code: string) => string;
  /** The error a URL (or its query string) carries, or `null` when it carries none. */
  readonly read: (url: string | URL | URLSearchParams) => PartnerOAuthError | null;
}

/**
 * The OAuth error parameter of one integration, to pass as `OAuthActivationForm`'s `errorParam`.
 * @example
 * const errorParam = partnerOAuthErrorParam('acme-notes');
 * errorParam.read('/settings?acme-notes_oauth_error=denied')?.message; // 'Access wasn’t granted ...'
 */
export function partnerOAuthErrorParam(slug: string): PartnerOAuthErrorParam {
  const name = `${slug}_oauth_error`;
  const messageFor = (code: string): string =>
    isOAuthCallbackErrorCode(code)
      ? OAUTH_CALLBACK_ERROR_MESSAGES[code]
      : `The connection didn’t complete (error “${code.slice(0, 64)}”). Connect again, and if it keeps failing, ask a workspace admin to check the integration’s setup.`;
  return {
    name,
    messageFor,
    read: (url) => {
      const code = toSearchParams(url).get(name);
      return code === null || code === '' ? null : { code, message: messageFor(code) };
    },
  };
}

function toSearchParams(url: string | URL | URLSearchParams): URLSearchParams {
  if (url instanceof URLSearchParams) return url;
  if (url instanceof URL) return url.searchParams;
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return new URLSearchParams();
  const hashStart = url.indexOf('#', queryStart);
  return new URLSearchParams(url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart));
}
