import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db, Queryable } from '../db/Db.js';
import { newId, newToken, sha256 } from '../store/ids.js';

// The grants a person gave MCP clients, each for one account, and what they are made of: a code
// (single use, 60 s), then an access token (an hour) and a rotating refresh token (30 days). Only
// SHA-256 hashes are stored; every secret a caller presents is compared in constant time.

export const CODE_TTL_SECONDS = 60;
export const ACCESS_TTL_SECONDS = 3600;
export const REFRESH_TTL_SECONDS = 30 * 86_400;

/** Constant-time equality of two strings (compared as their SHA-256 digests, so lengths do not leak). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The PKCE S256 challenge of a verifier (RFC 7636 4.2). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** What the token endpoint answers (RFC 6749 5.1). */
export interface IssuedTokens {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly refresh_token: string;
}

/** An RFC 6749 5.2 error of the token endpoint. */
export type TokenError = 'invalid_grant' | 'invalid_request' | 'invalid_client';

export interface StoredClient {
  readonly id: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly metadataDocument: boolean;
}

export async function saveClient(db: Queryable, client: StoredClient): Promise<void> {
  await db.query(
    `INSERT INTO mcp_clients (id, name, redirect_uris, metadata_document) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris`,
    [client.id, client.name, JSON.stringify(client.redirectUris), client.metadataDocument],
  );
}

export async function findClient(db: Queryable, id: string): Promise<StoredClient | undefined> {
  const { rows } = await db.query(
    'SELECT id, name, redirect_uris, metadata_document FROM mcp_clients WHERE id = $1',
    [id],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const uris = typeof row.redirect_uris === 'string' ? JSON.parse(row.redirect_uris) : row.redirect_uris;
  return {
    id: row.id as string,
    name: row.name as string,
    redirectUris: uris as string[],
    metadataDocument: row.metadata_document === true,
  };
}

/** A new authorization code bound to everything the token request must repeat; returned once. */
export async function createCode(
  db: Queryable,
  input: {
    clientId: string;
    userId: string;
    accountId: string;
    redirectUri: string;
    codeChallenge: string;
    resource: string;
    now: Date;
  },
): Promise<string> {
  await db.query('DELETE FROM mcp_codes WHERE expires_at < $1', [new Date(input.now.getTime() - 86_400_000)]);
  const code = newToken('pmc');
  await db.query(
    `INSERT INTO mcp_codes (code_hash, client_id, user_id, account_id, redirect_uri, code_challenge, resource, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      sha256(code),
      input.clientId,
      input.userId,
      input.accountId,
      input.redirectUri,
      input.codeChallenge,
      input.resource,
      new Date(input.now.getTime() + CODE_TTL_SECONDS * 1000),
    ],
  );
  return code;
}

async function issueTokens(tx: Queryable, grantId: string, now: Date): Promise<IssuedTokens> {
  const access = newToken('pma');
  const refresh = newToken('pmr');
  await tx.query(
    `INSERT INTO mcp_tokens (token_hash, grant_id, kind, expires_at) VALUES ($1, $3, 'access', $4), ($2, $3, 'refresh', $5)`,
    [
      sha256(access),
      sha256(refresh),
      grantId,
      new Date(now.getTime() + ACCESS_TTL_SECONDS * 1000),
      new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000),
    ],
  );
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TTL_SECONDS,
    refresh_token: refresh,
  };
}

/** Revokes a grant: its tokens stop working at once. */
async function revokeGrantById(db: Queryable, grantId: string, now: Date): Promise<void> {
  await db.query('UPDATE mcp_grants SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
    grantId,
    now,
  ]);
  await db.query('DELETE FROM mcp_tokens WHERE grant_id = $1', [grantId]);
}

/**
 * `grant_type=authorization_code`: the code once (a second use revokes what the first issued),
 * unexpired, for this client, redirect URI and resource, with the verifier of its challenge.
 */
export async function exchangeCode(
  db: Db,
  input: {
    code: string;
    clientId: string;
    redirectUri: string;
    verifier: string;
    resource: string | undefined;
    now: Date;
  },
): Promise<IssuedTokens | { error: TokenError; description: string }> {
  const codeHash = sha256(input.code);
  const { rows } = await db.query(
    `UPDATE mcp_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL
     RETURNING client_id, user_id, account_id, redirect_uri, code_challenge, resource, expires_at`,
    [codeHash, input.now],
  );
  const row = rows[0];
  if (row === undefined) {
    const used = await db.query('SELECT grant_id FROM mcp_codes WHERE code_hash = $1', [codeHash]);
    const grantId = used.rows[0]?.grant_id as string | null | undefined;
    if (grantId) await revokeGrantById(db, grantId, input.now);
    return {
      error: 'invalid_grant',
      description: 'The code is unknown or was already used; start the authorization again.',
    };
  }
  const invalid = (description: string) => ({ error: 'invalid_grant' as const, description });
  if (new Date(row.expires_at as string).getTime() <= input.now.getTime())
    return invalid('The code expired (codes live 60 seconds); start the authorization again.');
  if (!sameSecret(row.client_id as string, input.clientId))
    return invalid('The code was issued to another client.');
  if (!sameSecret(row.redirect_uri as string, input.redirectUri))
    return invalid('redirect_uri differs from the authorization request.');
  if (input.resource !== undefined && !sameSecret(row.resource as string, input.resource))
    return invalid('resource differs from the authorization request.');
  if (!sameSecret(row.code_challenge as string, s256(input.verifier)))
    return invalid('The code_verifier does not match the code_challenge.');
  const client = await findClient(db, input.clientId);
  return db.transaction(async (tx) => {
    const grantId = newId();
    await tx.query(
      `INSERT INTO mcp_grants (id, client_id, client_name, user_id, account_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [grantId, input.clientId, client?.name ?? input.clientId, row.user_id, row.account_id, input.now],
    );
    await tx.query('UPDATE mcp_codes SET grant_id = $2 WHERE code_hash = $1', [codeHash, grantId]);
    return issueTokens(tx, grantId, input.now);
  });
}

/**
 * `grant_type=refresh_token`: a new access and refresh token for the grant; the refresh token
 * presented is spent. Presenting a spent one again revokes the grant (someone holds a copy).
 */
export async function refreshTokens(
  db: Db,
  input: { refreshToken: string; clientId: string; now: Date },
): Promise<IssuedTokens | { error: TokenError; description: string }> {
  const tokenHash = sha256(input.refreshToken);
  const { rows } = await db.query(
    `SELECT t.grant_id, t.expires_at, t.rotated_at, g.client_id, g.revoked_at
     FROM mcp_tokens t JOIN mcp_grants g ON g.id = t.grant_id WHERE t.token_hash = $1 AND t.kind = 'refresh'`,
    [tokenHash],
  );
  const row = rows[0];
  const invalid = {
    error: 'invalid_grant' as const,
    description: 'The refresh token is unknown, expired or revoked; authorize again.',
  };
  if (row === undefined || row.revoked_at !== null) return invalid;
  const grantId = row.grant_id as string;
  if (!sameSecret(row.client_id as string, input.clientId)) return invalid;
  if (row.rotated_at !== null) {
    await revokeGrantById(db, grantId, input.now);
    return {
      error: 'invalid_grant',
      description: 'This refresh token was already used; the grant is revoked. Authorize again.',
    };
  }
  if (new Date(row.expires_at as string).getTime() <= input.now.getTime()) return invalid;
  return db.transaction(async (tx) => {
    const spent = await tx.query(
      'UPDATE mcp_tokens SET rotated_at = $2 WHERE token_hash = $1 AND rotated_at IS NULL',
      [tokenHash, input.now],
    );
    if (spent.rowCount !== 1) return invalid;
    // The grant's earlier access tokens end with the rotation.
    await tx.query(`DELETE FROM mcp_tokens WHERE grant_id = $1 AND kind = 'access'`, [grantId]);
    return issueTokens(tx, grantId, input.now);
  });
}

/** RFC 7009: the token (access or refresh) of this client stops working, with its whole grant. */
export async function revokeToken(
  db: Queryable,
  input: { token: string; clientId: string | undefined; now: Date },
): Promise<void> {
  const { rows } = await db.query(
    'SELECT t.grant_id, g.client_id FROM mcp_tokens t JOIN mcp_grants g ON g.id = t.grant_id WHERE t.token_hash = $1',
    [sha256(input.token)],
  );
  const row = rows[0];
  if (row === undefined) return;
  if (input.clientId !== undefined && !sameSecret(row.client_id as string, input.clientId)) return;
  await revokeGrantById(db, row.grant_id as string, input.now);
}

/** Who an access token acts for, or undefined when it is unknown, expired or its grant revoked. */
export async function accessTokenGrant(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ grantId: string; userId: string; accountId: string; lastUsedAt: Date | undefined } | undefined> {
  const { rows } = await db.query(
    `SELECT g.id, g.user_id, g.account_id, g.last_used_at, t.expires_at
     FROM mcp_tokens t JOIN mcp_grants g ON g.id = t.grant_id
     WHERE t.token_hash = $1 AND t.kind = 'access' AND g.revoked_at IS NULL`,
    [sha256(token)],
  );
  const row = rows[0];
  if (row === undefined || new Date(row.expires_at as string).getTime() <= now.getTime()) return undefined;
  return {
    grantId: row.id as string,
    userId: row.user_id as string,
    accountId: row.account_id as string,
    lastUsedAt: row.last_used_at === null ? undefined : new Date(row.last_used_at as string),
  };
}

/** Records a grant's use (at most once a minute). */
export async function noteGrantUse(db: Queryable, grantId: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE mcp_grants SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)',
    [grantId, now, new Date(now.getTime() - 60_000)],
  );
}

/** A grant as its owner sees it. */
export interface GrantView {
  readonly id: string;
  readonly clientId: string;
  readonly clientName: string;
  readonly accountId: string;
  readonly accountSlug: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

/** The user's grants that are not revoked, newest first. */
export async function listGrants(db: Queryable, userId: string): Promise<GrantView[]> {
  const { rows } = await db.query(
    `SELECT g.id, g.client_id, g.client_name, g.account_id, a.slug, g.created_at, g.last_used_at
     FROM mcp_grants g JOIN accounts a ON a.id = g.account_id
     WHERE g.user_id = $1 AND g.revoked_at IS NULL ORDER BY g.created_at DESC, g.id`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id as string,
    clientId: row.client_id as string,
    clientName: row.client_name as string,
    accountId: row.account_id as string,
    accountSlug: row.slug as string,
    createdAt: new Date(row.created_at as string).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at as string).toISOString(),
  }));
}

/** Revokes one of the user's grants; false when they have no such grant. */
export async function revokeUserGrant(
  db: Queryable,
  userId: string,
  grantId: string,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE mcp_grants SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL',
    [grantId, userId, now],
  );
  if (rowCount === 0) return false;
  await db.query('DELETE FROM mcp_tokens WHERE grant_id = $1', [grantId]);
  return true;
}
