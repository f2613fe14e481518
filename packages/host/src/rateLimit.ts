import type { Queryable } from './db/Db.js';

export interface RateLimitBucket {
  readonly key: string;
  readonly limit: number;
  /** What the limit is called in logs (`per_user`, ...); default the key. */
  readonly name?: string | undefined;
}

export type RateLimitResult =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      readonly retryAfterSeconds: number;
      /** The names (else keys) of the buckets over their limit, in the order given. */
      readonly exceeded: readonly string[];
      /**
       * This call is the first one over a limit in the window (across instances): callers log
       * that one and not the rest, so a flood of refused calls is not also a flood of log lines.
       */
      readonly firstRefusal: boolean;
    };

const WINDOW_MS = 60_000;

/**
 * Counts one call against every bucket in a fixed one-minute window kept in the database, so all
 * host instances share the same counts. Refused when any bucket is over its limit.
 * @example await consumeRateLimit(db, [{ key: `user:${id}`, limit: 1200, name: 'per_user' }], new Date());
 */
export async function consumeRateLimit(
  db: Queryable,
  buckets: readonly RateLimitBucket[],
  now: Date,
): Promise<RateLimitResult> {
  const windowStart = new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
  // Every bucket in one statement: one round trip per call whatever the number of buckets.
  const values = buckets.map((_, index) => `($${index + 2}, $1, 1)`).join(', ');
  const { rows } = await db.query(
    `INSERT INTO rate_limits (bucket, window_start, count) VALUES ${values}
     ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING bucket, count`,
    [windowStart, ...buckets.map((bucket) => bucket.key)],
  );
  const counts = new Map(rows.map((row) => [row.bucket as string, row.count as number]));
  const over = buckets.filter((bucket) => (counts.get(bucket.key) ?? 0) > bucket.limit);
  const exceeded = over.map((bucket) => bucket.name ?? bucket.key);
  // Old windows are dead weight; a rare sweep keeps the table small without a timer.
  if (Math.random() < 0.01) {
    await db.query('DELETE FROM rate_limits WHERE window_start < $1', [
      new Date(windowStart.getTime() - 5 * WINDOW_MS),
    ]);
  }
  if (exceeded.length === 0) return { allowed: true };
  return {
    allowed: false,
    exceeded,
    firstRefusal: over.some((bucket) => counts.get(bucket.key) === bucket.limit + 1),
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000)),
  };
}
