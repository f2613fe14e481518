import { Secret, TOTP } from 'otpauth';
import type { Queryable } from '../db/Db.js';
import type { SecretBox } from '../secrets/SecretBox.js';

// TOTP per user (RFC 6238): SHA-1, 6 digits, 30 s steps, one step either side accepted. The base32
// secret is sealed with the host's SecretBox, bound to the user; `totp_last_step` makes every
// code good once.

const PERIOD = 30;
const DIGITS = 6;
const WINDOW = 1;
const ISSUER = 'Platform';

// The SecretBox context: a sealed secret moved to another user's row does not open.
const sealContext = (userId: string) => `users.totp_secret:${userId}`;

const totpOf = (secret: string, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
  });

/** A TOTP secret (160 random bits, base32) and the `otpauth://` URL authenticator apps scan. */
export function newTotpSecret(email: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, email).toString() };
}

/**
 * Stores a user's TOTP secret, sealed; `enabledAt` enables it at once (the admin command), else
 * it waits for {@link verifyTotp} with `purpose: 'confirm'`. Replaces any earlier secret.
 */
export async function saveTotpSecret(
  db: Queryable,
  box: SecretBox,
  input: { userId: string; secret: string; enabledAt: Date | undefined },
): Promise<void> {
  await db.query(
    'UPDATE users SET totp_secret = $2, totp_enabled_at = $3, totp_last_step = NULL WHERE id = $1',
    [input.userId, box.encrypt(input.secret, sealContext(input.userId)), input.enabledAt ?? null],
  );
}

/** Whether the user signs in with a TOTP code as well as the password. */
export async function totpEnabled(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT totp_enabled_at IS NOT NULL AS enabled FROM users WHERE id = $1', [
    userId,
  ]);
  return rows[0]?.enabled === true;
}

/**
 * Checks a code at `now`: `purpose: 'verify'` against the enabled secret, `'confirm'` against a
 * secret waiting to be enabled (which a good code enables). A code's time step is accepted once,
 * also when two requests race: the step is recorded in the same statement that checks it.
 * `not_set_up`: no secret for that purpose; `invalid`: wrong, malformed or outside ±1 step;
 * `replayed`: that step (or a later one) was already used.
 */
export async function verifyTotp(
  db: Queryable,
  box: SecretBox,
  input: { userId: string; code: string; now: Date; purpose: 'verify' | 'confirm' },
): Promise<'ok' | 'not_set_up' | 'invalid' | 'replayed'> {
  const { rows } = await db.query(
    'SELECT totp_secret, totp_enabled_at IS NOT NULL AS enabled FROM users WHERE id = $1',
    [input.userId],
  );
  const row = rows[0];
  if (row === undefined || typeof row.totp_secret !== 'string') return 'not_set_up';
  if ((row.enabled === true) !== (input.purpose === 'verify')) return 'not_set_up';
  const secret = box.decrypt(row.totp_secret, sealContext(input.userId));
  const code = input.code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(code)) return 'invalid';
  const totp = totpOf(secret);
  const timestamp = input.now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: WINDOW });
  if (delta === null) return 'invalid';
  const step = totp.counter({ timestamp }) + delta;
  const { rowCount } = await db.query(
    `UPDATE users SET totp_last_step = $2, totp_enabled_at = coalesce(totp_enabled_at, $3)
     WHERE id = $1 AND totp_secret = $4 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
    [input.userId, step, input.now, row.totp_secret],
  );
  return rowCount === 1 ? 'ok' : 'replayed';
}
