import { OAuthConnectionUnavailableError, type UnavailableConnectionState } from '@platform/sdk/integration';
import type { OAuthConnectionHooks } from '../capabilities/createHostCapabilities.js';
import type { HostServices } from '../HostServices.js';
import type { ConnectionState } from './oauthConnections.js';
import { readTokenSet } from './oauthConnections.js';
import { type RunOnTokens, refreshConnection } from './refreshConnection.js';

const unavailable = (state: ConnectionState | 'not_connected'): state is UnavailableConnectionState =>
  state === 'backoff' || state === 'exhausted' || state === 'revoked';

/**
 * What `ctx.fetch` does with an account's OAuth connection (issue 51). The host recognises the
 * connection's token in a request's `Authorization: Bearer` header, the way handlers send the
 * token `onTokens` gave them; requests without it are left alone, whatever their origin (the
 * integration's egress already bounds where they go).
 * - A request bearing the token of an `exhausted` or `revoked` connection is not sent: the
 *   handler gets `OAuthConnectionUnavailableError` naming the state.
 * - A 401 to a request bearing the current token refreshes the connection (single flight, see
 *   refreshConnection.ts; once per call) and the request is sent again once with the new token; a
 *   401 to a request bearing the token it replaced is sent again with the current one, no refresh.
 *   When the refresh cannot give a token (backoff not over, failed, exhausted, revoked) the handler
 *   gets `OAuthConnectionUnavailableError` instead of the vendor's 401.
 * `onTokens` runs after each refresh as it does after the callback, so the handler's own copy of
 * the token (in its secrets) is the new one from its next call on.
 */
export function connectionHooks(
  services: HostServices,
  slug: string,
  accountId: string,
  onTokens: RunOnTokens,
): OAuthConnectionHooks {
  const read = () => readTokenSet(services.db, services.secretBox, slug, accountId);
  return {
    async check(bearer) {
      const found = await read();
      if (found?.tokens?.accessToken !== bearer) return;
      const { state } = found.connection;
      if (state === 'exhausted' || state === 'revoked') throw new OAuthConnectionUnavailableError(state);
    },
    async refreshAfter401(bearer) {
      const found = await read();
      const tokens = found?.tokens;
      if (tokens === undefined) return undefined;
      if (tokens.previousAccessToken === bearer) return tokens.accessToken;
      if (tokens.accessToken !== bearer) return undefined;
      const outcome = await refreshConnection(services, {
        slug,
        accountId,
        cause: { kind: 'unauthorized', staleAccessToken: bearer },
        onTokens,
      });
      switch (outcome.status) {
        case 'refreshed':
          return outcome.tokens.accessToken;
        case 'skipped':
          if (outcome.tokens.accessToken !== bearer) return outcome.tokens.accessToken;
          // Not refreshed and still the stale token: a backoff that is not over.
          throw new OAuthConnectionUnavailableError(unavailable(outcome.state) ? outcome.state : 'backoff');
        case 'failed':
          throw new OAuthConnectionUnavailableError(outcome.state);
        case 'unavailable':
          if (unavailable(outcome.state)) throw new OAuthConnectionUnavailableError(outcome.state);
          // No refresh token, or no connection: the 401 is the handler's to read.
          return undefined;
      }
    },
  };
}
