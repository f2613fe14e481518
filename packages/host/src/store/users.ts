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

/**
 * A new bearer token (`kind: 'token'`) or browser session (`kind: 'session'`). The secret is
 * returned once; only its SHA-256 is stored.
 */
export async function createToken(
  db: Queryable,
  input: { userId: string; kind: 'token' | 'session'; name?: string; expiresAt?: Date | undefined },
): Promise<{ id: string; token: string }> {
  const id = newId();
  const token = newToken(input.kind === 'token' ? 'plt' : 'pls');
  await db.query(
    'INSERT INTO sessions (id, token_hash, user_id, kind, name, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, sha256(token), input.userId, input.kind, input.name ?? null, input.expiresAt ?? null],
  );
  return { id, token };
}

/** The user a token or session secret belongs to, while it is neither revoked nor expired. */
export async function userForToken(
  db: Queryable,
  token: string,
  kind: 'token' | 'session',
): Promise<User | undefined> {
  const { rows } = await db.query(
    `SELECT u.id, u.email, u.name, u.is_platform_admin FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.kind = $2 AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now())`,
    [sha256(token), kind],
  );
  return rows[0] === undefined ? undefined : toUser(rows[0]);
}

export async function revokeToken(db: Queryable, token: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [
    sha256(token),
  ]);
}
