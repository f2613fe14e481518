import type { Logger } from 'pino';
import type { Queryable } from './db/Db.js';
import { singleFlight } from './singleFlight.js';

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
 * host instances share the same counts exactly. Refused when any bucket is over its limit. One
 * statement per call: the sign-in and authenticator limits use it (low rate, brute force guards);
 * action calls use the in-memory {@link createRateLimiter}.
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

/** How often a {@link RateLimiter} adds its local counts to `rate_limits` and reads the shared ones (ms). */
export const RATE_LIMIT_SYNC_MS = 250;

/**
 * Fixed one-minute windows counted in memory per instance and reconciled with `rate_limits`
 * every `syncMs`: a call costs no query. One instance is exact; with several, a bucket may go
 * over its limit by about what the other instances admit in two intervals (their counts not yet
 * added, plus the age of the shared count read back). See the host README.
 */
export interface RateLimiter {
  consume(buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitResult>;
  /** Adds local counts to the table and reads the shared ones back now (tests; the timer calls it). */
  sync(): Promise<void>;
  /** Stops the timer after a last sync. */
  close(): Promise<void>;
}

interface Counter {
  readonly key: string;
  readonly windowStart: number;
  /** The table's count as last read (it includes the local counts already added). */
  shared: number;
  /** Local calls not yet added to the table. */
  pending: number;
  /** Whether this instance asked the table who logs this window's first refusal. */
  refusalClaimed: boolean;
}

export function createRateLimiter(
  db: Queryable,
  options: { now: () => Date; logger: Pick<Logger, 'warn'>; syncMs?: number },
): RateLimiter {
  const syncMs = options.syncMs ?? RATE_LIMIT_SYNC_MS;
  const counters = new Map<string, Counter>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let failing = false;
  let closed = false;
  let sweptWindow = 0;

  async function syncOnce(): Promise<void> {
    const current = Math.floor(options.now().getTime() / WINDOW_MS) * WINDOW_MS;
    for (const [id, counter] of counters) {
      if (counter.windowStart < current && counter.pending === 0) counters.delete(id);
    }
    // In key order: two instances adding the same buckets lock their rows in one order (no deadlock).
    const adding = [...counters.values()]
      .filter((counter) => counter.pending > 0)
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStart - b.windowStart));
    const reading = [...counters.values()].filter((counter) => counter.pending === 0);
    const added = adding.map((counter) => counter.pending);
    try {
      if (adding.length > 0) {
        const values = adding.map((_, index) => `($${3 * index + 1}, $${3 * index + 2}, $${3 * index + 3})`);
        const { rows } = await db.query(
          `INSERT INTO rate_limits (bucket, window_start, count) VALUES ${values.join(', ')}
           ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + excluded.count
           RETURNING bucket, window_start, count`,
          adding.flatMap((counter, index) => [counter.key, new Date(counter.windowStart), added[index]]),
        );
        adding.forEach((counter, index) => {
          counter.pending -= added[index]!;
        });
        setShared(rows);
      }
      if (reading.length > 0) {
        const { rows } = await db.query(
          'SELECT bucket, window_start, count FROM rate_limits WHERE window_start = $1 AND bucket = ANY($2::text[])',
          [new Date(current), reading.filter((counter) => counter.windowStart === current).map((c) => c.key)],
        );
        setShared(rows);
      }
      if (sweptWindow !== current) {
        // Old windows are dead weight: each instance sweeps once a window.
        sweptWindow = current;
        await db.query('DELETE FROM rate_limits WHERE window_start < $1', [
          new Date(current - 5 * WINDOW_MS),
        ]);
      }
      failing = false;
    } catch (error) {
      // Counts not added stay pending and are added at the next sync.
      if (!failing) options.logger.warn({ err: error }, 'rate limits: syncing rate_limits failed; retrying');
      failing = true;
    }
    if (counters.size === 0) stop();
  }

  function setShared(rows: readonly Record<string, unknown>[]): void {
    for (const row of rows) {
      const windowStart = new Date(row.window_start as string | Date).getTime();
      const counter = counters.get(`${windowStart}\n${row.bucket as string}`);
      if (counter !== undefined) counter.shared = Number(row.count);
    }
  }

  const sync = singleFlight(syncOnce);

  function stop(): void {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  }

  async function claimRefusals(over: readonly Counter[]): Promise<boolean> {
    const claiming = over.filter((counter) => !counter.refusalClaimed);
    if (claiming.length === 0) return false;
    for (const counter of claiming) counter.refusalClaimed = true;
    const values = claiming.map((_, index) => `($${2 * index + 1}, $${2 * index + 2}, 0, true)`);
    // The first instance to claim a window's refusal logs it; the others do not.
    const { rows } = await db.query(
      `INSERT INTO rate_limits (bucket, window_start, count, refusal_logged) VALUES ${values.join(', ')}
       ON CONFLICT (bucket, window_start) DO UPDATE SET refusal_logged = true WHERE NOT rate_limits.refusal_logged
       RETURNING bucket`,
      claiming.flatMap((counter) => [counter.key, new Date(counter.windowStart)]),
    );
    return rows.length > 0;
  }

  return {
    sync,
    async close() {
      closed = true;
      stop();
      if (counters.size > 0) await sync();
      stop();
    },
    async consume(buckets, now) {
      const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
      const over: Counter[] = [];
      for (const bucket of buckets) {
        const id = `${windowStart}\n${bucket.key}`;
        let counter = counters.get(id);
        if (counter === undefined) {
          counter = { key: bucket.key, windowStart, shared: 0, pending: 0, refusalClaimed: false };
          counters.set(id, counter);
        }
        counter.pending += 1;
        if (counter.shared + counter.pending > bucket.limit) over.push(counter);
      }
      if (timer === undefined && !closed) {
        timer = setInterval(() => void sync(), syncMs);
        timer.unref?.();
      }
      if (over.length === 0) return { allowed: true };
      const names = new Set(over.map((counter) => counter.key));
      return {
        allowed: false,
        exceeded: buckets
          .filter((bucket) => names.has(bucket.key))
          .map((bucket) => bucket.name ?? bucket.key),
        firstRefusal: await claimRefusals(over),
        retryAfterSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - now.getTime()) / 1000)),
      };
    },
  };
}
