import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Queryable } from '../db/Db.js';
import { newId, newToken, sha256 } from './ids.js';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly isPlatformAdmin: boolean;
}

export type MembershipRole = 'owner' | 'admin' | 'member';

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32);
  return `scrypt.${salt.toString('base64')}.${hash.toString('base64')}`;
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, salt, hash] = stored.split('.');
  if (kind !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

const toUser = (row: Record<string, unknown>): User => ({
  id: row.id as string,
  email: row.email as string,
  name: row.name as string,
  isPlatformAdmin: row.is_platform_admin as boolean,
});

export async function createUser(
  db: Queryable,
  input: { email: string; name: string; password?: string | undefined; isPlatformAdmin?: boolean },
): Promise<User> {
  const id = newId();
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const { rows } = await db.query(
    `INSERT INTO users (id, email, name, password_hash, is_platform_admin) VALUES ($1, lower($2), $3, $4, $5)
     RETURNING id, email, name, is_platform_admin`,
    [id, input.email, input.name, passwordHash, input.isPlatformAdmin ?? false],
  );
  return toUser(rows[0]!);
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | undefined> {
  const { rows } = await db.query(
    'SELECT id, email, name, is_platform_admin FROM users WHERE email = lower($1)',
    [email],
  );
  return rows[0] === undefined ? undefined : toUser(rows[0]);
}

export async function findUserById(db: Queryable, id: string): Promise<User | undefined> {
  const { rows } = await db.query('SELECT id, email, name, is_platform_admin FROM users WHERE id = $1', [id]);
  return rows[0] === undefined ? undefined : toUser(rows[0]);
}

/** The user whose email and password match, or undefined (the same for an unknown email). */
export async function checkPassword(
  db: Queryable,
  email: string,
  password: string,
): Promise<User | undefined> {
  const { rows } = await db.query(
    'SELECT id, email, name, is_platform_admin, password_hash FROM users WHERE email = lower($1)',
    [email],
  );
  const row = rows[0];
  if (row === undefined || typeof row.password_hash !== 'string') return undefined;
  return (await verifyPassword(password, row.password_hash)) ? toUser(row) : undefined;
}

export async function createAccount(
  db: Queryable,
  input: { slug: string; name: string },
): Promise<{ id: string; slug: string; name: string }> {
  const id = newId();
  await db.query('INSERT INTO accounts (id, slug, name) VALUES ($1, $2, $3)', [id, input.slug, input.name]);
  return { id, slug: input.slug, name: input.name };
}

/**
 * The one rule that names an account, as SQL over the parameter `param` (for example `'$3'`): its
 * id, else its slug; an id wins should a slug ever equal another account's id. At most one row
 * (`id`, `slug`, `name`). Routes embed it to resolve the account in the same round trip as the
 * rest of a call; `findAccount` runs it alone. Membership and activation checks must join on the
 * resolved `id`, never on what the caller passed.
 */
export const accountByRefSql = (param: string): string =>
  `SELECT id, slug, name FROM accounts WHERE id = ${param} OR slug = ${param} ORDER BY id = ${param} DESC LIMIT 1`;

/**
 * What an unknown account reference is called in messages.
 * @example unknownAccount('alice-co') // 'No account "alice-co" (by id or slug)'
 */
export const unknownAccount = (idOrSlug: string): string => `No account "${idOrSlug}" (by id or slug)`;

/** The account `idOrSlug` names (see `accountByRefSql`), or undefined. */
export async function findAccount(
  db: Queryable,
  idOrSlug: string,
): Promise<{ id: string; slug: string; name: string } | undefined> {
  const { rows } = await db.query(accountByRefSql('$1'), [idOrSlug]);
  return rows[0] as { id: string; slug: string; name: string } | undefined;
}

export async function addMembership(
  db: Queryable,
  accountId: string,
  userId: string,
  role: MembershipRole,
): Promise<void> {
  await db.query(
    `INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (account_id, user_id) DO UPDATE SET role = excluded.role`,
    [accountId, userId, role],
  );
}

export async function membershipRole(
  db: Queryable,
  accountId: string,
  userId: string,
): Promise<MembershipRole | undefined> {
  const { rows } = await db.query('SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2', [
    accountId,
    userId,
  ]);
  return rows[0]?.role as MembershipRole | undefined;
}

/** The members of an account, owners first, then admins, then members, each by name. */
export async function accountMembers(
  db: Queryable,
  accountId: string,
): Promise<{ userId: string; email: string; name: string; role: MembershipRole; since: Date }[]> {
  const { rows } = await db.query(
    `SELECT u.id, u.email, u.name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.account_id = $1
     ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, u.name, u.email`,
    [accountId],
  );
  return rows.map((row) => ({
    userId: row.id as string,
    email: row.email as string,
    name: row.name as string,
    role: row.role as MembershipRole,
    since: new Date(row.created_at as string | Date),
  }));
}

/** What a personal access token may do; browser and CLI sessions may do everything (no scopes). */
export type TokenScope = 'publish' | 'read';
export const TOKEN_SCOPES: readonly TokenScope[] = ['publish', 'read'];

/** `session`: the browser cookie; `token`: a personal access token; `cli`: a device sign-in. */
export type CredentialKind = 'session' | 'token' | 'cli';

/** How a request carried its secret: `Authorization: Bearer` (token, cli) or the cookie (session). */
export type CredentialVia = 'bearer' | 'cookie';

/** A stored session or token (never its secret). */
export interface Credential {
  readonly id: string;
  readonly kind: CredentialKind;
  /** Undefined: every scope (sessions, CLI sessions, tokens made before scopes existed). */
  readonly scopes: readonly TokenScope[] | undefined;
  readonly mfaPending: boolean;
  readonly expiresAt: Date | undefined;
  /** The CLI session that minted this token: it signs nothing in once that one is revoked or expired. */
  readonly parentId: string | undefined;
}

/** Why a credential does not sign a request in. */
export type CredentialFailure = 'unknown' | 'expired' | 'revoked' | 'mfa_pending';

/**
 * The outcome of looking a secret up: `unknown`, or its user and credential with the reason it is
 * refused (`failure` undefined: it signs the request in). `mfa_pending` still names the user, so
 * `POST /api/platform/mfa/verify` can clear it.
 */
export type CredentialLookup =
  | { readonly failure: 'unknown' }
  | {
      readonly failure: Exclude<CredentialFailure, 'unknown'> | undefined;
      readonly user: User;
      readonly credential: Credential;
    };

/** The session kinds a secret arriving `via` may be, as two SQL parameters (`kind IN ($a, $b)`). */
export const credentialKindsOf = (via: CredentialVia): [CredentialKind, CredentialKind] =>
  via === 'cookie' ? ['session', 'session'] : ['token', 'cli'];

/** The columns of `sessions s` that {@link credentialFromRow} reads, for queries that embed the check. */
export const CREDENTIAL_COLUMNS_SQL = `s.id AS credential_id, s.kind AS credential_kind, s.scopes, s.mfa_pending,
  s.expires_at, s.revoked_at, s.parent_id,
  (SELECT p.expires_at FROM sessions p WHERE p.id = s.parent_id) AS parent_expires_at,
  (SELECT p.revoked_at FROM sessions p WHERE p.id = s.parent_id) AS parent_revoked_at`;

/** A stored `scopes` column as scopes; undefined (NULL): every scope. */
export const scopesOf = (value: unknown): readonly TokenScope[] | undefined =>
  typeof value === 'string'
    ? (value
        .split(' ')
        .filter((scope) => (TOKEN_SCOPES as readonly string[]).includes(scope)) as TokenScope[])
    : undefined;

/** A nullable timestamp column as a Date. */
export const dateOf = (value: unknown): Date | undefined =>
  value === null || value === undefined ? undefined : new Date(value as string | Date);

const isSet = (value: unknown): boolean => value !== null && value !== undefined;

/**
 * The one rule of whether a stored credential signs a request in at `now`: revoked (it, or the
 * CLI session that minted it), then expired (likewise), then waiting for its TOTP code. Every
 * caller (the lookup below and queries that embed {@link CREDENTIAL_COLUMNS_SQL}) decides with it.
 */
export function credentialFromRow(
  row: Record<string, unknown>,
  now: Date,
): { credential: Credential; failure: Exclude<CredentialFailure, 'unknown'> | undefined } {
  const expiresAt = dateOf(row.expires_at);
  const credential: Credential = {
    id: row.credential_id as string,
    kind: row.credential_kind as CredentialKind,
    scopes: scopesOf(row.scopes),
    mfaPending: row.mfa_pending === true,
    expiresAt,
    parentId: (row.parent_id as string | null | undefined) ?? undefined,
  };
  const ended = (at: Date | undefined) => at !== undefined && at.getTime() <= now.getTime();
  const failure =
    isSet(row.revoked_at) || isSet(row.parent_revoked_at)
      ? 'revoked'
      : ended(expiresAt) || ended(dateOf(row.parent_expires_at))
        ? 'expired'
        : credential.mfaPending
          ? 'mfa_pending'
          : undefined;
  return { credential, failure };
}

/**
 * The user and credential a secret belongs to, and why it is refused if it is (see
 * {@link credentialFromRow}). The one credential lookup of every route.
 * @example const found = await findCredential(db, secret, 'bearer', services.now()); if (found.failure) ...
 */
export async function findCredential(
  db: Queryable,
  secret: string,
  via: CredentialVia,
  now: Date,
): Promise<CredentialLookup> {
  const [kindA, kindB] = credentialKindsOf(via);
  const { rows } = await db.query(
    `SELECT u.id, u.email, u.name, u.is_platform_admin, ${CREDENTIAL_COLUMNS_SQL}
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.kind IN ($2, $3)`,
    [sha256(secret), kindA, kindB],
  );
  const row = rows[0];
  if (row === undefined) return { failure: 'unknown' };
  return { user: toUser(row), ...credentialFromRow(row, now) };
}

const SECRET_PREFIX: Record<CredentialKind, 'plt' | 'pls' | 'plc'> = {
  token: 'plt',
  session: 'pls',
  cli: 'plc',
};

/**
 * A new personal access token (`kind: 'token'`, optionally scoped), browser session (`'session'`)
 * or CLI session (`'cli'`). The secret is returned once; only its SHA-256 is stored.
 */
export async function createToken(
  db: Queryable,
  input: {
    userId: string;
    kind: CredentialKind;
    name?: string | undefined;
    expiresAt?: Date | undefined;
    /** Tokens only; undefined: every scope. */
    scopes?: readonly TokenScope[] | undefined;
    /** Sessions of a user with TOTP start waiting for a code. */
    mfaPending?: boolean | undefined;
    /** Tokens minted by a CLI session: that session's id (the token ends with it). */
    parentId?: string | undefined;
  },
): Promise<{ id: string; token: string }> {
  const id = newId();
  const token = newToken(SECRET_PREFIX[input.kind]);
  const scopes =
    input.scopes === undefined ? null : TOKEN_SCOPES.filter((s) => input.scopes?.includes(s)).join(' ');
  await db.query(
    `INSERT INTO sessions (id, token_hash, user_id, kind, name, expires_at, scopes, mfa_pending, parent_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      sha256(token),
      input.userId,
      input.kind,
      input.name ?? null,
      input.expiresAt ?? null,
      scopes,
      input.mfaPending ?? false,
      input.parentId ?? null,
    ],
  );
  return { id, token };
}

/** The user a token or session secret belongs to, while it signs requests in (see {@link findCredential}). */
export async function userForToken(
  db: Queryable,
  token: string,
  kind: 'token' | 'session',
  now: Date = new Date(),
): Promise<User | undefined> {
  const found = await findCredential(db, token, kind === 'session' ? 'cookie' : 'bearer', now);
  return found.failure === undefined ? found.user : undefined;
}

/** A session that waited for its TOTP code no longer does. */
export async function clearMfaPending(db: Queryable, credentialId: string): Promise<void> {
  await db.query('UPDATE sessions SET mfa_pending = false WHERE id = $1', [credentialId]);
}

export async function revokeToken(db: Queryable, token: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [
    sha256(token),
  ]);
}
