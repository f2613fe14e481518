import { randomBytes } from 'node:crypto';
import { createPkcePair } from '@platform/sdk/server';
import type { Queryable } from '../db/Db.js';
import type { SecretBox } from '../secrets/SecretBox.js';
import { sha256 } from '../store/ids.js';

/** How long a connection attempt may take from connect to callback. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
// Spent and expired rows are kept a day so a replay reads as `expired`, not as an unknown state.
const KEEP_MS = 24 * 60 * 60_000;

export interface NewOAuthState {
  /** The `state` parameter: sent to the provider, never stored (only its SHA-256 is). */
  readonly state: string;
  /** The PKCE `code_challenge` (S256), when PKCE is on. */
  readonly codeChallenge: string | undefined;
}

export interface OAuthStateRow {
  readonly accountId: string;
  readonly userId: string;
  readonly returnPath: string;
  readonly redirectUri: string;
  readonly codeVerifier: string | undefined;
}

export type ConsumedOAuthState =
  | ({ readonly status: 'fresh' } & OAuthStateRow)
  | {
      readonly status: 'expired' | 'used';
      readonly returnPath: string;
      /** Who started the attempt and for which account: for the security log only. */
      readonly accountId: string;
      readonly userId: string;
    };

// The verifier is encrypted at rest, bound to its state: a database reader alone cannot redeem a code.
const verifierContext = (stateHash: string) => `oauth_state\n${stateHash}`;

/**
 * Starts a connection attempt: a random single-use state (32 bytes, base64url) bound to the
 * integration, account, user, return path and redirect URI, valid 10 minutes, and a PKCE
 * verifier when asked. Also drops attempts that ended more than a day ago.
 * @example const { state, codeChallenge } = await createOAuthState(db, box, { slug, accountId, userId, returnPath, redirectUri, pkce: true, now });
 */
export async function createOAuthState(
  db: Queryable,
  box: SecretBox,
  input: {
    slug: string;
    accountId: string;
    userId: string;
    returnPath: string;
    redirectUri: string;
    pkce: boolean;
    now: Date;
  },
): Promise<NewOAuthState> {
  const state = randomBytes(32).toString('base64url');
  const stateHash = sha256(state);
  const pkce = input.pkce ? createPkcePair() : undefined;
  await db.query('DELETE FROM oauth_states WHERE expires_at < $1', [new Date(input.now.getTime() - KEEP_MS)]);
  await db.query(
    `INSERT INTO oauth_states (state_hash, integration_slug, account_id, user_id, return_path, code_verifier, redirect_uri, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      stateHash,
      input.slug,
      input.accountId,
      input.userId,
      input.returnPath,
      pkce === undefined ? null : box.encrypt(pkce.codeVerifier, verifierContext(stateHash)),
      input.redirectUri,
      input.now,
      new Date(input.now.getTime() + OAUTH_STATE_TTL_MS),
    ],
  );
  return { state, codeChallenge: pkce?.codeChallenge };
}

/**
 * Spends a state at its first callback, whatever happens next. Undefined for a state this
 * integration never issued; `used` for one already spent; `expired` past its 10 minutes.
 * The update is conditional, so of two concurrent callbacks only one sees it fresh.
 * @example const consumed = await consumeOAuthState(db, box, { slug, state, now: new Date() });
 */
export async function consumeOAuthState(
  db: Queryable,
  box: SecretBox,
  input: { slug: string; state: string; now: Date },
): Promise<ConsumedOAuthState | undefined> {
  const stateHash = sha256(input.state);
  const spent = await db.query(
    `UPDATE oauth_states SET used_at = $3 WHERE state_hash = $1 AND integration_slug = $2 AND used_at IS NULL
     RETURNING account_id, user_id, return_path, code_verifier, redirect_uri, expires_at`,
    [stateHash, input.slug, input.now],
  );
  const row = spent.rows[0];
  if (row === undefined) {
    const { rows } = await db.query(
      'SELECT return_path, account_id, user_id FROM oauth_states WHERE state_hash = $1 AND integration_slug = $2',
      [stateHash, input.slug],
    );
    const known = rows[0];
    return known === undefined
      ? undefined
      : {
          status: 'used',
          returnPath: known.return_path as string,
          accountId: known.account_id as string,
          userId: known.user_id as string,
        };
  }
  const returnPath = row.return_path as string;
  if (new Date(row.expires_at as string | Date).getTime() <= input.now.getTime())
    return {
      status: 'expired',
      returnPath,
      accountId: row.account_id as string,
      userId: row.user_id as string,
    };
  const encrypted = row.code_verifier as string | null;
  return {
    status: 'fresh',
    accountId: row.account_id as string,
    userId: row.user_id as string,
    returnPath,
    redirectUri: row.redirect_uri as string,
    codeVerifier: encrypted === null ? undefined : box.decrypt(encrypted, verifierContext(stateHash)),
  };
}
