import type { Queryable } from './db/Db.js';

export interface RateLimitBucket {
  readonly key: string;
  readonly limit: number;
}

export type RateLimitResult =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

const WINDOW_MS = 60_000;

/**
 * Counts one call against every bucket in a fixed one-minute window kept in the database, so all
 * host instances share the same counts. Refused when any bucket is over its limit.
 * @example await consumeRateLimit(db, [{ key: `user:${id}`, limit: 1200 }], new Date());
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
  const limits = new Map(buckets.map((bucket) => [bucket.key, bucket.limit]));
  const over = rows.some(
    (row) => (row.count as number) > (limits.get(row.bucket as string) ?? Number.POSITIVE_INFINITY),
  );
  // Old windows are dead weight; a rare sweep keeps the table small without a timer.
  if (Math.random() < 0.01) {
    await db.query('DELETE FROM rate_limits WHERE window_start < $1', [
      new Date(windowStart.getTime() - 5 * WINDOW_MS),
    ]);
  }
  if (!over) return { allowed: true };
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000)),
  };
}
