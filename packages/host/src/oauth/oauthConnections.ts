import type { Queryable } from '../db/Db.js';

export interface OAuthConnection {
  readonly userId: string | undefined;
  readonly scope: string | undefined;
  readonly connectedAt: Date;
}

/** Records (or replaces) an account's connection of an integration after `onTokens` succeeded. */
export async function recordOAuthConnection(
  db: Queryable,
  input: { slug: string; accountId: string; userId: string; scope: string | undefined; connectedAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_connections (integration_slug, account_id, user_id, scope, connected_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (integration_slug, account_id) DO UPDATE
     SET user_id = excluded.user_id, scope = excluded.scope, connected_at = excluded.connected_at`,
    [input.slug, input.accountId, input.userId, input.scope ?? null, input.connectedAt],
  );
}

/** An account's connection of an integration, or undefined when it never connected. */
export async function findOAuthConnection(
  db: Queryable,
  slug: string,
  accountId: string,
): Promise<OAuthConnection | undefined> {
  const { rows } = await db.query(
    'SELECT user_id, scope, connected_at FROM oauth_connections WHERE integration_slug = $1 AND account_id = $2',
    [slug, accountId],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    userId: (row.user_id as string | null) ?? undefined,
    scope: (row.scope as string | null) ?? undefined,
    connectedAt: new Date(row.connected_at as string | Date),
  };
}
