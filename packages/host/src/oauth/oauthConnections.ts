import type { Tokens } from '@platform/sdk/integration';
import type { ConnectionHealth } from '@platform/wire';
import type { Queryable } from '../db/Db.js';
import type { SecretBox } from '../secrets/SecretBox.js';

/** A connection's health (issue 51): see `refreshConnection.ts` for how it moves. */
export type ConnectionState = 'healthy' | 'refreshing' | 'backoff' | 'exhausted' | 'revoked';

/** What the host keeps of the token set, encrypted on the connection row. */
export interface StoredTokenSet {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** ISO 8601; absent when the provider said nothing of an expiry. */
  readonly expiresAt?: string;
  readonly scope?: string;
  readonly tokenType?: string;
  /** The access token this one replaced (a call bearing it after a refresh is retried with the new one, not refreshed again). */
  readonly previousAccessToken?: string;
}

export interface OAuthConnection {
  readonly userId: string | undefined;
  readonly scope: string | undefined;
  readonly connectedAt: Date;
  readonly state: ConnectionState;
  readonly expiresAt: Date | undefined;
  readonly lastSuccessAt: Date | undefined;
  readonly lastFailureAt: Date | undefined;
  readonly lastFailureReason: string | undefined;
  readonly nextRefreshAt: Date | undefined;
  readonly failingSince: Date | undefined;
  readonly failures: number;
  /** When the host last refreshed the token set (undefined: never, only connected). */
  readonly refreshedAt: Date | undefined;
  /** Whether a token set is kept (connections made before migration 0017 have none). */
  readonly hasTokens: boolean;
}

// The token set is bound to its connection: a row copied to another connection does not decrypt.
export const tokenSetContext = (slug: string, accountId: string) => `oauth_connection\n${slug}\n${accountId}`;

/** The token set as stored: what `Tokens` says of it (the `raw` extras stay the partner's). */
export function toStoredTokenSet(tokens: Tokens): StoredTokenSet {
  return {
    accessToken: tokens.accessToken,
    ...(tokens.refreshToken === undefined ? {} : { refreshToken: tokens.refreshToken }),
    ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
    ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
    ...(tokens.tokenType === undefined ? {} : { tokenType: tokens.tokenType }),
  };
}

/**
 * When a token set is refreshed next: `beforeExpiryMs` before it expires, only when it can be
 * (it has a refresh token and an expiry); undefined otherwise.
 */
export function nextRefreshOf(tokens: StoredTokenSet, beforeExpiryMs: number): Date | undefined {
  if (tokens.refreshToken === undefined || tokens.expiresAt === undefined) return undefined;
  return new Date(Date.parse(tokens.expiresAt) - beforeExpiryMs);
}

/**
 * Records (or replaces) an account's connection of an integration after `onTokens` succeeded,
 * with its token set encrypted (SecretBox, bound to the integration and account) and a fresh
 * health: `healthy`, no failure, the next refresh `beforeExpiryMs` before the expiry.
 */
export async function recordOAuthConnection(
  db: Queryable,
  box: SecretBox,
  input: {
    slug: string;
    accountId: string;
    userId: string;
    scope: string | undefined;
    connectedAt: Date;
    tokens: Tokens;
    beforeExpiryMs: number;
  },
): Promise<void> {
  const stored = toStoredTokenSet(input.tokens);
  await db.query(
    `INSERT INTO oauth_connections (integration_slug, account_id, user_id, scope, connected_at, tokens, expires_at,
       state, last_success_at, last_failure_at, last_failure_reason, next_refresh_at, failing_since, failures, refreshed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'healthy', $5, NULL, NULL, $8, NULL, 0, NULL)
     ON CONFLICT (integration_slug, account_id) DO UPDATE
     SET user_id = excluded.user_id, scope = excluded.scope, connected_at = excluded.connected_at,
       tokens = excluded.tokens, expires_at = excluded.expires_at, state = 'healthy',
       last_success_at = excluded.last_success_at, last_failure_at = NULL, last_failure_reason = NULL,
       next_refresh_at = excluded.next_refresh_at, failing_since = NULL, failures = 0, refreshed_at = NULL`,
    [
      input.slug,
      input.accountId,
      input.userId,
      input.scope ?? null,
      input.connectedAt,
      box.encrypt(JSON.stringify(stored), tokenSetContext(input.slug, input.accountId)),
      stored.expiresAt === undefined ? null : new Date(stored.expiresAt),
      nextRefreshOf(stored, input.beforeExpiryMs) ?? null,
    ],
  );
}

const COLUMNS = `user_id, scope, connected_at, state, tokens IS NOT NULL AS has_tokens, expires_at, last_success_at,
  last_failure_at, last_failure_reason, next_refresh_at, failing_since, failures, refreshed_at`;

const dateOf = (value: unknown): Date | undefined =>
  value === null || value === undefined ? undefined : new Date(value as string | Date);

/** A connection row (read with `COLUMNS`) as an {@link OAuthConnection}. */
export function connectionOf(row: Record<string, unknown>): OAuthConnection {
  return {
    userId: (row.user_id as string | null) ?? undefined,
    scope: (row.scope as string | null) ?? undefined,
    connectedAt: new Date(row.connected_at as string | Date),
    state: row.state as ConnectionState,
    expiresAt: dateOf(row.expires_at),
    lastSuccessAt: dateOf(row.last_success_at),
    lastFailureAt: dateOf(row.last_failure_at),
    lastFailureReason: (row.last_failure_reason as string | null) ?? undefined,
    nextRefreshAt: dateOf(row.next_refresh_at),
    failingSince: dateOf(row.failing_since),
    failures: Number(row.failures ?? 0),
    refreshedAt: dateOf(row.refreshed_at),
    hasTokens: row.has_tokens === true,
  };
}

/** An account's connection of an integration, or undefined when it never connected. */
export async function findOAuthConnection(
  db: Queryable,
  slug: string,
  accountId: string,
): Promise<OAuthConnection | undefined> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM oauth_connections WHERE integration_slug = $1 AND account_id = $2`,
    [slug, accountId],
  );
  const row = rows[0];
  return row === undefined ? undefined : connectionOf(row);
}

/** The connection with its token set decrypted (undefined when none is kept or it no longer decrypts). */
export async function readTokenSet(
  db: Queryable,
  box: SecretBox,
  slug: string,
  accountId: string,
  lock = false,
): Promise<{ connection: OAuthConnection; tokens: StoredTokenSet | undefined } | undefined> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS}, tokens FROM oauth_connections WHERE integration_slug = $1 AND account_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [slug, accountId],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const connection = connectionOf(row);
  const encrypted = row.tokens as string | null;
  if (encrypted === null) return { connection, tokens: undefined };
  try {
    return {
      connection,
      tokens: JSON.parse(box.decrypt(encrypted, tokenSetContext(slug, accountId))) as StoredTokenSet,
    };
  } catch {
    return { connection, tokens: undefined };
  }
}

const DAY_MS = 24 * 60 * 60_000;

/** A connection's health as the status route and the dashboard show it (wire `connectionHealthSchema`). */
export function connectionHealth(connection: OAuthConnection, now: Date): ConnectionHealth {
  const iso = (date: Date | undefined) => date?.toISOString() ?? null;
  return {
    state: connection.state,
    lastSuccessAt: iso(connection.lastSuccessAt),
    lastFailure:
      connection.lastFailureAt === undefined
        ? null
        : { at: connection.lastFailureAt.toISOString(), reason: connection.lastFailureReason ?? '' },
    nextRefreshAt: iso(connection.nextRefreshAt),
    expiresAt: iso(connection.expiresAt),
    failingDays:
      connection.failingSince === undefined
        ? 0
        : Math.max(1, Math.ceil((now.getTime() - connection.failingSince.getTime()) / DAY_MS)),
  };
}
