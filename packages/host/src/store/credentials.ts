import type { Queryable } from '../db/Db.js';
import { type CredentialKind, dateOf, scopesOf, TOKEN_SCOPES, type TokenScope } from './users.js';

// A user's sessions and tokens as they see them, listed and revoked, and when each was last used.
// Revoking a CLI session revokes the tokens it minted in the same statement (and the sign-in rule
// in users.ts refuses them anyway once their parent is revoked or expired).

/** When and from where a credential last signed a request in (null: not since it was made). */
export interface LastUse {
  readonly lastUsedAt: string | null;
  readonly lastUsedAddress: string | null;
}

/** A browser or CLI session as its owner sees it (never the secret). */
export interface SessionView extends LastUse {
  readonly id: string;
  /** `browser`: the session cookie; `cli`: a device sign-in. */
  readonly kind: 'browser' | 'cli';
  /** A CLI session: the client name its device code was asked for with (untrusted text). */
  readonly name: string | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

/** A personal access token as its owner sees it (never the secret). */
export interface TokenView extends LastUse {
  readonly id: string;
  readonly name: string | null;
  readonly scopes: readonly TokenScope[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
  /** The CLI session that minted it: the token ends with that session. */
  readonly sessionId: string | null;
}

const iso = (value: unknown): string => new Date(value as string | Date).toISOString();

const lastUseOf = (row: Record<string, unknown>): LastUse => ({
  lastUsedAt: dateOf(row.last_used_at)?.toISOString() ?? null,
  lastUsedAddress: (row.last_used_address as string | null) ?? null,
});

/** The user's browser and CLI sessions that still sign requests in at `now`, newest first. */
export async function listSessions(db: Queryable, userId: string, now: Date): Promise<SessionView[]> {
  const { rows } = await db.query(
    `SELECT s.id, s.kind, s.name, s.created_at, s.expires_at, u.last_used_at, u.last_used_address
     FROM sessions s LEFT JOIN credential_uses u ON u.credential_id = s.id
     WHERE s.user_id = $1 AND s.kind IN ('session', 'cli') AND s.revoked_at IS NULL
       AND (s.expires_at IS NULL OR s.expires_at > $2)
     ORDER BY s.created_at DESC, s.id`,
    [userId, now],
  );
  return rows.map((row) => ({
    id: row.id as string,
    kind: row.kind === 'cli' ? 'cli' : 'browser',
    name: (row.name as string | null) ?? null,
    createdAt: iso(row.created_at),
    expiresAt: dateOf(row.expires_at)?.toISOString() ?? null,
    ...lastUseOf(row),
  }));
}

/** The user's personal access tokens that are not revoked, newest first. */
export async function listTokens(db: Queryable, userId: string): Promise<TokenView[]> {
  const { rows } = await db.query(
    `SELECT s.id, s.name, s.scopes, s.created_at, s.expires_at, s.parent_id, u.last_used_at, u.last_used_address
     FROM sessions s LEFT JOIN credential_uses u ON u.credential_id = s.id
     WHERE s.user_id = $1 AND s.kind = 'token' AND s.revoked_at IS NULL ORDER BY s.created_at DESC, s.id`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id as string,
    name: (row.name as string | null) ?? null,
    scopes: scopesOf(row.scopes) ?? TOKEN_SCOPES,
    createdAt: iso(row.created_at),
    expiresAt: dateOf(row.expires_at)?.toISOString() ?? null,
    sessionId: (row.parent_id as string | null) ?? null,
    ...lastUseOf(row),
  }));
}

/** A revoked credential; `revokedAt` is the first revocation's time when it already was. */
export interface RevokedCredential {
  readonly id: string;
  readonly userId: string;
  readonly kind: CredentialKind;
  readonly name: string | null;
  readonly revokedAt: string;
  /** The tokens it had minted, revoked with it (a CLI session's). */
  readonly revokedTokens: readonly string[];
}

/**
 * Revokes a credential of one of `kinds` by id (of `userId` when given), and the tokens it minted.
 * Undefined when there is no such credential.
 */
export async function revokeCredential(
  db: Queryable,
  input: {
    id: string;
    kinds: readonly [CredentialKind, CredentialKind];
    userId?: string | undefined;
    now: Date;
  },
): Promise<RevokedCredential | undefined> {
  const { rows } = await db.query(
    `WITH target AS (
       SELECT id FROM sessions WHERE id = $1 AND kind IN ($4, $5) AND ($3::text IS NULL OR user_id = $3)
     )
     UPDATE sessions SET revoked_at = coalesce(revoked_at, $2)
     WHERE id IN (SELECT id FROM target) OR parent_id IN (SELECT id FROM target)
     RETURNING id, user_id, kind, name, revoked_at`,
    [input.id, input.now, input.userId ?? null, input.kinds[0], input.kinds[1]],
  );
  const row = rows.find((candidate) => candidate.id === input.id);
  if (row === undefined) return undefined;
  return {
    id: row.id as string,
    userId: row.user_id as string,
    kind: row.kind as CredentialKind,
    name: (row.name as string | null) ?? null,
    revokedAt: iso(row.revoked_at),
    revokedTokens: rows.filter((other) => other.id !== input.id).map((other) => other.id as string),
  };
}

/**
 * Revokes a personal access token or CLI session by id (of `userId` when given), with the tokens
 * a CLI session minted. Undefined when there is no such credential.
 */
export const revokeTokenById = (
  db: Queryable,
  input: { id: string; userId?: string | undefined; now: Date },
): Promise<RevokedCredential | undefined> => revokeCredential(db, { ...input, kinds: ['token', 'cli'] });

/** How often a credential's last use is written, at most. */
export const LAST_USE_RESOLUTION_MS = 60_000;

// Per database: when this process last wrote each credential's use (the SQL bounds it across instances).
const written = new WeakMap<Queryable, Map<string, number>>();

/**
 * Records that a credential signed a request in at `now`, at most once a minute per credential:
 * this process skips the write within the minute, and the statement writes nothing when another
 * instance wrote within it.
 */
export async function recordCredentialUse(
  db: Queryable,
  input: { credentialId: string; now: Date; address: string | undefined },
): Promise<void> {
  const seen = written.get(db) ?? new Map<string, number>();
  written.set(db, seen);
  const at = input.now.getTime();
  const previous = seen.get(input.credentialId);
  if (previous !== undefined && at - previous < LAST_USE_RESOLUTION_MS && at >= previous) return;
  if (seen.size >= 10_000) {
    for (const [id, when] of seen) if (at - when >= LAST_USE_RESOLUTION_MS) seen.delete(id);
  }
  seen.set(input.credentialId, at);
  await db.query(
    `INSERT INTO credential_uses (credential_id, last_used_at, last_used_address) VALUES ($1, $2, $3)
     ON CONFLICT (credential_id) DO UPDATE SET last_used_at = excluded.last_used_at,
       last_used_address = excluded.last_used_address
     WHERE credential_uses.last_used_at <= excluded.last_used_at - interval '60 seconds'
        OR credential_uses.last_used_at > excluded.last_used_at`,
    [input.credentialId, input.now, input.address ?? null],
  );
}
