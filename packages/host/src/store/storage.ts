import type { Queryable } from '../db/Db.js';

/** Where a stored value lives: one integration, one account, and for user scope one user. */
export interface StorageLocation {
  readonly slug: string;
  readonly accountId: string;
  readonly scope: 'account' | 'user';
  /** '' for account scope. */
  readonly userId: string;
}

export async function readStorage(
  db: Queryable,
  at: StorageLocation,
  keys: readonly string[],
): Promise<Map<string, unknown>> {
  if (keys.length === 0) return new Map();
  const { rows } = await db.query(
    `SELECT key, value FROM storage WHERE integration_slug = $1 AND account_id = $2 AND scope = $3 AND user_id = $4
     AND key = ANY($5::text[])`,
    [at.slug, at.accountId, at.scope, at.userId, keys],
  );
  return new Map(rows.map((row) => [row.key as string, row.value]));
}

export async function writeStorage(
  db: Queryable,
  at: StorageLocation,
  key: string,
  value: unknown,
): Promise<void> {
  await db.query(
    `INSERT INTO storage (integration_slug, account_id, scope, user_id, key, value) VALUES ($1, $2, $3, $4, $5, $6::jsonb)
     ON CONFLICT (integration_slug, account_id, scope, user_id, key) DO UPDATE SET value = excluded.value, updated_at = now()`,
    [at.slug, at.accountId, at.scope, at.userId, key, JSON.stringify(value)],
  );
}

export async function deleteStorage(db: Queryable, at: StorageLocation, key: string): Promise<void> {
  await db.query(
    'DELETE FROM storage WHERE integration_slug = $1 AND account_id = $2 AND scope = $3 AND user_id = $4 AND key = $5',
    [at.slug, at.accountId, at.scope, at.userId, key],
  );
}
