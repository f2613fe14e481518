import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/Db.js';
import { newToken, sha256 } from './ids.js';

// Device authorization (RFC 8628 shape): the CLI holds a device code (only its SHA-256 is
// stored), the person types the user code on the host's page. Codes live ten minutes.

export const DEVICE_CODE_TTL_SECONDS = 600;

// Consonants only, without look-alikes and vowels (no words, no 0/O, 1/I/L confusion).
const USER_CODE_ALPHABET = 'BCDFGHJKMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

/**
 * A user code as stored and shown (`BCDF-GHJK`), from what someone typed: case, spaces and dashes
 * do not matter. Undefined when it cannot be one.
 * @example normalizeUserCode('bcdf ghjk') // 'BCDF-GHJK'
 */
export function normalizeUserCode(typed: string): string | undefined {
  const letters = typed.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== USER_CODE_LENGTH) return undefined;
  if ([...letters].some((letter) => !USER_CODE_ALPHABET.includes(letter))) return undefined;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

function newUserCode(): string {
  let letters = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++)
    letters += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

/** A new pending device code; the device code itself is returned once. */
export async function createDeviceCode(
  db: Queryable,
  input: {
    clientName: string | undefined;
    /** Where the request for the code came from, shown on the approval page. */
    clientAddress: string | undefined;
    intervalSeconds: number;
    now: Date;
  },
): Promise<{ deviceCode: string; userCode: string; expiresAt: Date }> {
  // Codes a day past their expiry are of no use to anyone, and keep their user code taken.
  await db.query('DELETE FROM device_codes WHERE expires_at < $1', [
    new Date(input.now.getTime() - 86_400_000),
  ]);
  const expiresAt = new Date(input.now.getTime() + DEVICE_CODE_TTL_SECONDS * 1000);
  for (let attempt = 0; ; attempt++) {
    const deviceCode = newToken('pld');
    const userCode = newUserCode();
    const { rowCount } = await db.query(
      `INSERT INTO device_codes (device_code_hash, user_code, client_name, client_address, interval_seconds, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_code) DO NOTHING`,
      [
        sha256(deviceCode),
        userCode,
        input.clientName ?? null,
        input.clientAddress ?? null,
        input.intervalSeconds,
        input.now,
        expiresAt,
      ],
    );
    if (rowCount === 1) return { deviceCode, userCode, expiresAt };
    // 19^8 codes: a clash is rare, three in a row means something else is wrong.
    if (attempt === 2) throw new Error('could not find a free user code');
  }
}

/** A pending sign-in as the approval page shows it: who asked (as they call themselves), from where, when. */
export interface DeviceRequest {
  readonly clientName: string | undefined;
  readonly clientAddress: string | undefined;
  readonly requestedAt: Date;
  readonly expiresAt: Date;
}

/** The pending, unexpired sign-in of a user code at `now`, or undefined. */
export async function findDeviceRequest(
  db: Queryable,
  userCode: string,
  now: Date,
): Promise<DeviceRequest | undefined> {
  const { rows } = await db.query(
    `SELECT client_name, client_address, created_at, expires_at FROM device_codes
     WHERE user_code = $1 AND status = 'pending' AND expires_at > $2`,
    [userCode, now],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    clientName: (row.client_name as string | null) ?? undefined,
    clientAddress: (row.client_address as string | null) ?? undefined,
    requestedAt: new Date(row.created_at as string | Date),
    expiresAt: new Date(row.expires_at as string | Date),
  };
}

/** What a poll of the device code finds. `approved` hands the user over once (the row becomes `issued`). */
export type DevicePoll =
  | { readonly status: 'unknown' | 'expired' | 'denied' | 'pending' | 'slow_down' }
  | { readonly status: 'approved'; readonly userId: string; readonly clientName: string | undefined };

/**
 * One poll by the CLI at `now`. A poll sooner than the code's interval after the previous one is
 * `slow_down`; every poll of a pending code counts as the previous one for the next. An approved
 * code is handed over to exactly one poll, also when two race.
 */
export async function pollDeviceCode(db: Queryable, deviceCode: string, now: Date): Promise<DevicePoll> {
  const hash = sha256(deviceCode);
  const { rows } = await db.query(
    `SELECT status, user_id, client_name, interval_seconds, last_polled_at, expires_at
     FROM device_codes WHERE device_code_hash = $1`,
    [hash],
  );
  const row = rows[0];
  if (row === undefined || row.status === 'issued') return { status: 'unknown' };
  if (new Date(row.expires_at as string | Date).getTime() <= now.getTime()) return { status: 'expired' };
  if (row.status === 'denied') return { status: 'denied' };
  if (row.status === 'approved') {
    const issued = await db.query(
      `UPDATE device_codes SET status = 'issued', last_polled_at = $2
       WHERE device_code_hash = $1 AND status = 'approved' RETURNING user_id`,
      [hash, now],
    );
    return issued.rowCount === 1
      ? {
          status: 'approved',
          userId: row.user_id as string,
          clientName: (row.client_name as string | null) ?? undefined,
        }
      : { status: 'unknown' };
  }
  // Pending: the previous poll is read and replaced in one statement, so racing polls count.
  const { rows: polled } = await db.query(
    `UPDATE device_codes d SET last_polled_at = $2 FROM (
       SELECT device_code_hash, last_polled_at FROM device_codes WHERE device_code_hash = $1 FOR UPDATE
     ) previous
     WHERE d.device_code_hash = previous.device_code_hash RETURNING previous.last_polled_at AS previous`,
    [hash, now],
  );
  const previous = polled[0]?.previous as string | Date | null | undefined;
  const intervalMs = (row.interval_seconds as number) * 1000;
  const tooSoon =
    previous !== null && previous !== undefined && now.getTime() - new Date(previous).getTime() < intervalMs;
  return { status: tooSoon ? 'slow_down' : 'pending' };
}

/**
 * The signed-in user's answer to a user code at `now`. `decided` on success; otherwise why not:
 * no such code, expired, or already answered.
 */
export async function decideDeviceCode(
  db: Queryable,
  input: { userCode: string; userId: string; decision: 'approve' | 'deny'; now: Date },
): Promise<
  | { readonly outcome: 'decided'; readonly clientName: string | undefined }
  | { readonly outcome: 'unknown' | 'expired' | 'already_decided' }
> {
  const { rows } = await db.query(
    `UPDATE device_codes SET status = $3, user_id = $4
     WHERE user_code = $1 AND status = 'pending' AND expires_at > $2 RETURNING client_name`,
    [input.userCode, input.now, input.decision === 'approve' ? 'approved' : 'denied', input.userId],
  );
  if (rows[0] !== undefined) {
    return { outcome: 'decided', clientName: (rows[0].client_name as string | null) ?? undefined };
  }
  const { rows: found } = await db.query('SELECT status, expires_at FROM device_codes WHERE user_code = $1', [
    input.userCode,
  ]);
  const row = found[0];
  if (row === undefined) return { outcome: 'unknown' };
  if (row.status === 'pending') return { outcome: 'expired' };
  return { outcome: 'already_decided' };
}
