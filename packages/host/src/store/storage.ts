import { prepared, type Queryable } from '../db/Db.js';

/** Where a stored value lives: one integration, one account, and for user scope one user. */
export interface StorageLocation {
  readonly slug: string;
  readonly accountId: string;
  readonly scope: 'account' | 'user';
  /** '' for account scope. */
  readonly userId: string;
}

// Prepared (Db.ts), as the commit's statements below are (writeStorage runs the commit's UPSERT_KEY):
// the storage routes and capabilities run them per call.
const READ_KEYS = prepared(
  `SELECT key, value FROM storage WHERE integration_slug = $1 AND account_id = $2 AND scope = $3 AND user_id = $4
   AND key = ANY($5::text[])`,
);

export async function readStorage(
  db: Queryable,
  at: StorageLocation,
  keys: readonly string[],
): Promise<Map<string, unknown>> {
  if (keys.length === 0) return new Map();
  const { rows } = await db.query(READ_KEYS, [at.slug, at.accountId, at.scope, at.userId, keys]);
  return new Map(rows.map((row) => [row.key as string, row.value]));
}

export async function writeStorage(
  db: Queryable,
  at: StorageLocation,
  key: string,
  value: unknown,
): Promise<void> {
  await db.query(UPSERT_KEY, [at.slug, at.accountId, at.scope, at.userId, key, JSON.stringify(value)]);
}

/** One stored key: its location and name. */
export interface StoredKey extends StorageLocation {
  readonly key: string;
}

/** One stored key as a single string, ordered as its columns are: the same key, the same text. */
const storedKeyId = (at: StoredKey): string =>
  `${at.slug}\n${at.accountId}\n${at.scope}\n${at.userId}\n${at.key}`;

/** A stored value and its version; version 0: absent (value undefined). */
export interface VersionedStorageValue {
  readonly value: unknown;
  readonly version: number;
}

// bigint: PGlite answers a number, pg a string.
const versionOf = (value: unknown): number => Number(value);

const WHERE_KEY = 'integration_slug = $1 AND account_id = $2 AND scope = $3 AND user_id = $4 AND key = $5';
// A call's first read of each key: prepared, as it runs on nearly every call.
const READ_VERSIONED = prepared(`SELECT value, version FROM storage WHERE ${WHERE_KEY}`);

/** One key with its version (0 when absent), for a call's first read of it. */
export async function readVersionedStorage(db: Queryable, at: StoredKey): Promise<VersionedStorageValue> {
  const { rows } = await db.query(READ_VERSIONED, [at.slug, at.accountId, at.scope, at.userId, at.key]);
  const row = rows[0];
  return row === undefined
    ? { value: undefined, version: 0 }
    : { value: row.value, version: versionOf(row.version) };
}

// Several calls' first reads in one statement: a lateral index lookup per key (never a scan),
// answered in the order asked.
const READ_VERSIONED_MANY = prepared(
  `SELECT r.i, s.value, s.version
   FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY
     AS r (slug, account_id, scope, user_id, key, i)
   JOIN LATERAL (SELECT value, version FROM storage
                 WHERE integration_slug = r.slug AND account_id = r.account_id AND scope = r.scope
                   AND user_id = r.user_id AND key = r.key) s ON true`,
);

/**
 * Keys with their versions (0 when absent), in the order given, in one statement: what
 * `services.storageReads` sends for the first reads of the calls running at the same moment.
 * Each answer is a committed value, as a read of its own would be; the commit checks its version.
 * A key asked for more than once (calls of one account reading the same key) is looked up once.
 */
export async function readVersionedStorageMany(
  db: Queryable,
  keys: readonly StoredKey[],
): Promise<VersionedStorageValue[]> {
  const slotOf = new Map<string, number>();
  const unique: StoredKey[] = [];
  const slots = keys.map((at) => {
    const id = storedKeyId(at);
    let slot = slotOf.get(id);
    if (slot === undefined) {
      slot = unique.push(at) - 1;
      slotOf.set(id, slot);
    }
    return slot;
  });
  if (unique.length === 1) {
    const found = await readVersionedStorage(db, unique[0]!);
    return keys.map(() => found);
  }
  const { rows } = await db.query(READ_VERSIONED_MANY, [
    unique.map((at) => at.slug),
    unique.map((at) => at.accountId),
    unique.map((at) => at.scope),
    unique.map((at) => at.userId),
    unique.map((at) => at.key),
  ]);
  const found: VersionedStorageValue[] = unique.map(() => ({ value: undefined, version: 0 }));
  for (const row of rows) found[Number(row.i) - 1] = { value: row.value, version: versionOf(row.version) };
  return slots.map((slot) => found[slot]!);
}

/** A stored key a commit writes: `value` undefined deletes it; `expected` as in the sdk's `StorageWrite`. */
export interface StorageSave extends StoredKey {
  readonly value: unknown;
  readonly expected: number | undefined;
}

/** What one call's commit checks and writes (one integration and account). */
export interface StoragePlan {
  /** Keys read and not written: each must still have `version` (0: still absent). */
  readonly checks: readonly (StoredKey & { readonly version: number })[];
  readonly saves: readonly StorageSave[];
}

export type StoragePlanOutcome =
  | { readonly ok: true; readonly versions: number[] }
  | { readonly ok: false; readonly changed: { readonly in: 'checks' | 'saves'; readonly index: number } };

const INSERT = 'INSERT INTO storage (integration_slug, account_id, scope, user_id, key, value)';
const ON_KEY = 'ON CONFLICT (integration_slug, account_id, scope, user_id, key)';
// A call's commit, one statement per key: prepared, as they run on every call that writes.
const LOCK_KEY = prepared(`SELECT version FROM storage WHERE ${WHERE_KEY} FOR UPDATE`);
const DELETE_KEY = prepared(`DELETE FROM storage WHERE ${WHERE_KEY} RETURNING 0 AS version`);
const DELETE_KEY_AT = prepared(
  `DELETE FROM storage WHERE ${WHERE_KEY} AND version = $6 RETURNING 0 AS version`,
);
const UPSERT_KEY = prepared(
  `${INSERT} VALUES ($1, $2, $3, $4, $5, $6::jsonb)
   ${ON_KEY} DO UPDATE SET value = excluded.value, version = excluded.version, updated_at = now()
   RETURNING version`,
);
const INSERT_ABSENT_KEY = prepared(
  `${INSERT} VALUES ($1, $2, $3, $4, $5, $6::jsonb) ${ON_KEY} DO NOTHING RETURNING version`,
);
const UPDATE_KEY_AT = prepared(
  `UPDATE storage SET value = $6::jsonb, version = nextval('storage_versions'), updated_at = now()
   WHERE ${WHERE_KEY} AND version = $7 RETURNING version`,
);
const HOLD_ABSENT_KEY = prepared(
  `INSERT INTO storage (integration_slug, account_id, scope, user_id, key, value, version)
   VALUES ($1, $2, $3, $4, $5, 'null'::jsonb, 0) ${ON_KEY} DO NOTHING RETURNING 1 AS held`,
);
const DROP_PLACEHOLDERS = prepared(
  'DELETE FROM storage WHERE integration_slug = $1 AND account_id = $2 AND version = 0',
);

/**
 * Checks and writes a call's keys inside the caller's transaction; answers the new version of each
 * save (0 for a delete), or where the first key that changed is (the caller must then roll back).
 * One statement per key, in key order (so two commits take their rows in the same order), each
 * waiting on the row it touches and seeing the latest committed one, in READ COMMITTED as with
 * PGlite's one-at-a-time transactions: a key read at version v is written with `UPDATE ... WHERE
 * version = v`, one read as absent with `INSERT ... ON CONFLICT DO NOTHING` (it waits on another
 * call's insert of the same key, then sees it); a key only read is locked `FOR UPDATE` or, read as
 * absent, held by an uncommitted placeholder row (version 0, deleted again before the commit) so
 * that no other call can insert it meanwhile. A deadlock PostgreSQL breaks is a conflict too.
 */
export async function applyStoragePlan(tx: Queryable, plan: StoragePlan): Promise<StoragePlanOutcome> {
  const steps = [
    ...plan.checks.map((at, index) => ({ at, in: 'checks' as const, index })),
    ...plan.saves.map((at, index) => ({ at, in: 'saves' as const, index })),
  ].sort((a, b) => compareKeys(a.at, b.at));
  const versions: number[] = plan.saves.map(() => 0);
  let placeholders = false;
  try {
    for (const step of steps) {
      const { at } = step;
      const key = [at.slug, at.accountId, at.scope, at.userId, at.key];
      let same: boolean;
      if (step.in === 'checks') {
        const expected = plan.checks[step.index]!.version;
        if (expected > 0) {
          const { rows } = await tx.query(LOCK_KEY, key);
          same = rows[0] !== undefined && versionOf(rows[0].version) === expected;
        } else {
          same = await holdAbsent(tx, key);
          placeholders = true;
        }
      } else {
        const save = plan.saves[step.index]!;
        const value = save.value === undefined ? undefined : JSON.stringify(save.value);
        const { expected } = save;
        let rows: Record<string, unknown>[];
        if (value === undefined && expected === 0) {
          // Deleting a key read as absent changes nothing, but it must still be absent.
          same = await holdAbsent(tx, key);
          placeholders = true;
          rows = [];
        } else if (value === undefined) {
          ({ rows } = await (expected === undefined
            ? tx.query(DELETE_KEY, key)
            : tx.query(DELETE_KEY_AT, [...key, expected])));
          same = expected === undefined || rows.length === 1;
        } else if (expected === undefined) {
          ({ rows } = await tx.query(UPSERT_KEY, [...key, value]));
          same = true;
        } else if (expected === 0) {
          ({ rows } = await tx.query(INSERT_ABSENT_KEY, [...key, value]));
          same = rows.length === 1;
        } else {
          ({ rows } = await tx.query(UPDATE_KEY_AT, [...key, value, expected]));
          same = rows.length === 1;
        }
        if (rows[0] !== undefined) versions[step.index] = versionOf(rows[0].version);
      }
      if (!same) return { ok: false, changed: { in: step.in, index: step.index } };
    }
    if (placeholders) {
      // This transaction's own placeholders: no committed row ever has version 0.
      await tx.query(DROP_PLACEHOLDERS, [steps[0]!.at.slug, steps[0]!.at.accountId]);
    }
  } catch (error) {
    // PostgreSQL broke a deadlock by failing this transaction: another commit took these rows.
    const first = steps[0];
    if ((error as { code?: unknown }).code === '40P01' && first !== undefined) {
      return { ok: false, changed: { in: first.in, index: first.index } };
    }
    throw error;
  }
  return { ok: true, versions };
}

// An uncommitted row of version 0 where the key is absent: another call's insert of it now waits
// for this transaction. False when the key exists (or another call inserted it first).
async function holdAbsent(tx: Queryable, key: unknown[]): Promise<boolean> {
  const { rows } = await tx.query(HOLD_ABSENT_KEY, key);
  return rows.length === 1;
}

function compareKeys(a: StoredKey, b: StoredKey): number {
  const left = storedKeyId(a);
  const right = storedKeyId(b);
  return left < right ? -1 : left > right ? 1 : 0;
}
