import type { Tokens } from '@platform/sdk/integration';
import { redactText } from '@platform/sdk/runtime';
import { OAuthFailure, refreshTokens, TokenRefreshError } from '@platform/sdk/server';
import type { Queryable } from '../db/Db.js';
import type { HostServices } from '../HostServices.js';
import { securityEvent } from '../security/securityEvent.js';
import { type InstalledVersion, liveVersion } from '../store/integrations.js';
import {
  type ConnectionState,
  nextRefreshOf,
  type OAuthConnection,
  readTokenSet,
  type StoredTokenSet,
  tokenSetContext,
} from './oauthConnections.js';
import { readClientCredentials } from './readClientCredentials.js';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Runs the partner's `onTokens` with a refreshed token set (as a machine actor) and saves what it
 * wrote; logs, never throws (callCapabilities.ts's `runRefreshedOnTokens`: the capabilities
 * layer builds the call, so this module does not import it).
 */
export type RunOnTokens = (version: InstalledVersion, accountId: string, tokens: Tokens) => Promise<void>;

/** Why a refresh was asked for: the scheduler's sweep (before expiry), or a 401 to a call bearing `staleAccessToken`. */
export type RefreshCause =
  | { readonly kind: 'scheduled' }
  | { readonly kind: 'unauthorized'; readonly staleAccessToken: string };

/** How a refresh ended. */
export type RefreshOutcome =
  /** This call refreshed: the new token set (a refresh token the provider did not rotate is the old one). */
  | { readonly status: 'refreshed'; readonly tokens: StoredTokenSet }
  /** Another call (or instance) had refreshed already, or it is not due: the token set as it now is. */
  | { readonly status: 'skipped'; readonly tokens: StoredTokenSet; readonly state: ConnectionState }
  /** The provider was asked and failed; the connection is now in `state`. */
  | {
      readonly status: 'failed';
      readonly state: 'backoff' | 'exhausted' | 'revoked';
      readonly reason: string;
    }
  /** Nothing to refresh: no connection, no kept token set or refresh token, or a state the host does not refresh from. */
  | { readonly status: 'unavailable'; readonly state: ConnectionState | 'not_connected' };

/** The state a connection is in when no refresh runs: `refreshing` is only ever transient. */
const settledState = (connection: OAuthConnection): ConnectionState =>
  connection.state === 'refreshing' ? (connection.failures > 0 ? 'backoff' : 'healthy') : connection.state;

/**
 * Refreshes one account's OAuth connection of an integration, single flight across instances
 * (issue 51): the row is marked `refreshing`, then one transaction takes `SELECT ... FOR UPDATE`
 * on it and reads it again. When another instance refreshed meanwhile (the expiry moved past the
 * threshold, or, after a 401, the access token is no longer the stale one) or a backoff is not
 * over, it skips and answers the token set as it is. Else it asks the provider (the refresh
 * grant, at most `oauthRefresh.providerTimeoutMs` while it holds the lock) and writes, in the same
 * transaction, the new access token and, if the provider rotated it, the new refresh token (an
 * answer without one keeps the old), or the failure: `revoked` on `invalid_grant`, else `backoff`
 * (30 s doubling up to 1 h by default) and `exhausted` once it has failed for
 * `exhaustedAfterDays` days. After the commit: a security event when the state changed, and on a
 * success the partner's `onTokens` (as the callback runs it; a failing `onTokens` is logged, the
 * host's token set stays refreshed).
 * @example const outcome = await refreshConnection(services, { slug, accountId, cause: { kind: 'scheduled' } });
 */
export async function refreshConnection(
  services: HostServices,
  input: { slug: string; accountId: string; cause: RefreshCause; onTokens: RunOnTokens },
): Promise<RefreshOutcome> {
  const { slug, accountId, cause } = input;
  const runOnTokens = (version: InstalledVersion, tokens: StoredTokenSet) =>
    input.onTokens(version, accountId, withoutPrevious(tokens));
  const settings = services.oauthRefresh;
  const version = await liveVersion(services.db, slug);
  const oauth = version?.manifest.oauth;
  if (version === undefined || oauth === undefined) return { status: 'unavailable', state: 'not_connected' };
  // Read before the lock: a missing client secret is a failure like any other provider failure.
  let credentials: Awaited<ReturnType<typeof readClientCredentials>> | OAuthFailure;
  try {
    credentials = await readClientCredentials(services.db, services.secretBox, { version, oauth, accountId });
  } catch (error) {
    if (!(error instanceof OAuthFailure)) throw error;
    credentials = error;
  }

  // Visible to every instance while the refresh runs; the transaction below always settles it.
  await services.db.query(
    `UPDATE oauth_connections SET state = 'refreshing'
     WHERE integration_slug = $1 AND account_id = $2 AND state IN ('healthy', 'backoff') AND tokens IS NOT NULL`,
    [slug, accountId],
  );

  let before: ConnectionState | undefined;
  let late: Promise<Tokens> | undefined;
  const outcome = await services.db.transaction(async (tx): Promise<RefreshOutcome> => {
    const now = services.now();
    const read = await readTokenSet(tx, services.secretBox, slug, accountId, true);
    if (read === undefined) return { status: 'unavailable', state: 'not_connected' };
    const { connection, tokens } = read;
    before = settledState(connection);
    const settle = async () => {
      if (connection.state === 'refreshing') await setState(tx, slug, accountId, before!);
    };
    if (tokens?.refreshToken === undefined || before === 'exhausted' || before === 'revoked') {
      await settle();
      return { status: 'unavailable', state: tokens === undefined ? 'not_connected' : before };
    }
    const backoffPending =
      before === 'backoff' && connection.nextRefreshAt !== undefined && connection.nextRefreshAt > now;
    const alreadyDone =
      cause.kind === 'scheduled'
        ? tokens.expiresAt !== undefined &&
          Date.parse(tokens.expiresAt) - settings.beforeExpiryMs > now.getTime()
        : tokens.accessToken !== cause.staleAccessToken;
    if (alreadyDone || backoffPending) {
      await settle();
      return { status: 'skipped', tokens, state: before };
    }

    let fresh: Tokens;
    try {
      if (credentials instanceof OAuthFailure) {
        throw new TokenRefreshError('failed', credentials.message, { reason: credentials.code });
      }
      const asked = refreshTokens(services.fetch, {
        tokenUrl: oauth.provider.tokenUrl,
        tokenAuthMethod: oauth.provider.tokenAuthMethod,
        egress: version.manifest.egress,
        credentials,
        refreshToken: tokens.refreshToken,
        now,
        onPrivateAddress: (error) =>
          securityEvent(
            services.logger,
            'egress_private_address',
            { integration: slug, accountId, origin: error.origin },
            error.message,
          ),
      });
      fresh = await withTimeout(asked, settings.providerTimeoutMs, () => {
        late = asked;
      });
    } catch (error) {
      const failure =
        error instanceof TokenRefreshError
          ? error
          : new TokenRefreshError('failed', redactText((error as Error).message ?? String(error)));
      return recordFailure(tx, services, { slug, accountId, connection, failure, now });
    }

    const merged: StoredTokenSet = {
      accessToken: fresh.accessToken,
      // A provider that does not rotate sends no refresh token: the old one stays valid.
      refreshToken: fresh.refreshToken ?? tokens.refreshToken,
      ...(fresh.expiresAt === undefined ? {} : { expiresAt: fresh.expiresAt }),
      ...((fresh.scope ?? tokens.scope) === undefined ? {} : { scope: fresh.scope ?? tokens.scope }),
      ...((fresh.tokenType ?? tokens.tokenType) === undefined
        ? {}
        : { tokenType: fresh.tokenType ?? tokens.tokenType }),
      previousAccessToken: tokens.accessToken,
    };
    await writeTokenSet(tx, services, { slug, accountId, tokens: merged, now });
    return { status: 'refreshed', tokens: merged };
  });

  const after =
    outcome.status === 'refreshed' ? 'healthy' : outcome.status === 'failed' ? outcome.state : undefined;
  if (before !== undefined && after !== undefined && after !== before) {
    securityEvent(
      services.logger,
      'oauth_connection_state',
      {
        integration: slug,
        accountId,
        from: before,
        to: after,
        cause: cause.kind,
        ...(outcome.status === 'failed' ? { reason: outcome.reason } : {}),
      },
      `OAuth connection ${before} -> ${after}`,
    );
  }
  if (outcome.status === 'refreshed') {
    services.logger.info({ integration: slug, accountId, cause: cause.kind }, 'OAuth connection refreshed');
    await runOnTokens(version, outcome.tokens);
  } else if (outcome.status === 'failed') {
    services.logger.warn(
      { integration: slug, accountId, cause: cause.kind, state: outcome.state, reason: outcome.reason },
      'OAuth refresh failed',
    );
  }
  // The provider answered after the lock was let go: if it rotated the refresh token, the old one
  // may be dead already, so its answer is kept when the row still holds the token set it replaces.
  if (late !== undefined && outcome.status === 'failed') {
    const replaced = await readTokenSet(services.db, services.secretBox, slug, accountId);
    late.then(
      async (fresh) => {
        const stillOld = await readTokenSet(services.db, services.secretBox, slug, accountId);
        const old = replaced?.tokens;
        if (old === undefined || stillOld?.tokens?.accessToken !== old.accessToken) return;
        const merged: StoredTokenSet = {
          ...old,
          previousAccessToken: old.accessToken,
          accessToken: fresh.accessToken,
          ...((fresh.refreshToken ?? old.refreshToken) === undefined
            ? {}
            : { refreshToken: fresh.refreshToken ?? old.refreshToken }),
          ...(fresh.expiresAt === undefined ? {} : { expiresAt: fresh.expiresAt }),
        };
        await writeTokenSet(services.db, services, { slug, accountId, tokens: merged, now: services.now() });
        await runOnTokens(version, merged);
      },
      () => {},
    );
  }
  return outcome;
}

async function setState(tx: Queryable, slug: string, accountId: string, state: ConnectionState) {
  await tx.query('UPDATE oauth_connections SET state = $3 WHERE integration_slug = $1 AND account_id = $2', [
    slug,
    accountId,
    state,
  ]);
}

/** Writes a refreshed token set and a healthy state (no failure, the next refresh from the new expiry). */
async function writeTokenSet(
  db: Queryable,
  services: HostServices,
  input: { slug: string; accountId: string; tokens: StoredTokenSet; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE oauth_connections SET tokens = $3, expires_at = $4, state = 'healthy', last_success_at = $5,
       next_refresh_at = $6, failing_since = NULL, failures = 0, refreshed_at = $5
     WHERE integration_slug = $1 AND account_id = $2`,
    [
      input.slug,
      input.accountId,
      services.secretBox.encrypt(JSON.stringify(input.tokens), tokenSetContext(input.slug, input.accountId)),
      input.tokens.expiresAt === undefined ? null : new Date(input.tokens.expiresAt),
      input.now,
      nextRefreshOf(input.tokens, services.oauthRefresh.beforeExpiryMs) ?? null,
    ],
  );
}

/** Records a failed refresh: `revoked`, or `backoff` until it has failed `exhaustedAfterDays` days, then `exhausted`. */
async function recordFailure(
  tx: Queryable,
  services: HostServices,
  input: {
    slug: string;
    accountId: string;
    connection: OAuthConnection;
    failure: TokenRefreshError;
    now: Date;
  },
): Promise<RefreshOutcome> {
  const { connection, failure, now } = input;
  const settings = services.oauthRefresh;
  const failures = connection.failures + 1;
  const failingSince = connection.failingSince ?? now;
  const state: 'backoff' | 'exhausted' | 'revoked' =
    failure.kind === 'revoked'
      ? 'revoked'
      : now.getTime() - failingSince.getTime() >= settings.exhaustedAfterDays * DAY_MS
        ? 'exhausted'
        : 'backoff';
  const delay = Math.min(settings.backoffBaseMs * 2 ** (failures - 1), settings.backoffMaxMs);
  const reason = failureReason(failure);
  await tx.query(
    `UPDATE oauth_connections SET state = $3, last_failure_at = $4, last_failure_reason = $5, failures = $6,
       failing_since = $7, next_refresh_at = $8
     WHERE integration_slug = $1 AND account_id = $2`,
    [
      input.slug,
      input.accountId,
      state,
      now,
      reason,
      failures,
      failingSince,
      state === 'backoff' ? new Date(now.getTime() + delay) : null,
    ],
  );
  return { status: 'failed', state, reason };
}

/** What the health shows of a failure: the message and the provider's error fields, never a token. */
function failureReason(failure: TokenRefreshError): string {
  const { error, errorDescription, reason } = failure.fields;
  const details = [error, errorDescription, reason].filter((part) => part !== undefined).join(': ');
  return (details === '' ? failure.message : `${failure.message} (${details})`).slice(0, 500);
}

/** The Tokens `onTokens` gets: the token set without the host's own bookkeeping. */
function withoutPrevious(tokens: StoredTokenSet): Tokens {
  const { previousAccessToken: _previous, ...rest } = tokens;
  return rest;
}

/** `promise`, or a TypeError past `ms` (then `onLate` is told, so a late answer is not lost). */
async function withTimeout<T>(promise: Promise<T>, ms: number, onLate: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onLate();
      reject(new TypeError(`the token endpoint did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
