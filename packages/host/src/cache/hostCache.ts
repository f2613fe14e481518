import type { Logger } from 'pino';
import type { Db, PreparedSql, Queryable, Sql } from '../db/Db.js';
import { singleFlight } from '../singleFlight.js';

/**
 * How fresh the host cache is kept. A change committed to a watched table (see
 * {@link WATCHED_TABLES}) is seen by every instance within `staleAfterMs`: an entry is served only
 * while this instance's last successful poll of the epoch was issued at most that long ago.
 */
export interface HostCacheOptions {
  /** How often the epoch is polled while the cache is in use (ms). */
  readonly pollIntervalMs: number;
  /** The bound: past it since the last successful poll was issued, the cache is bypassed (ms). */
  readonly staleAfterMs: number;
  /** A backstop: no entry is served once older than this, whatever the epoch says (ms). */
  readonly maxAgeMs: number;
  /** Entries kept at most; past it every entry is dropped. */
  readonly maxEntries: number;
  /** Unused for this long, the poller stops (and the cache empties) until the next lookup (ms). */
  readonly idleStopMs: number;
  /** A monotonic clock in ms (tests pass a fake one). */
  readonly clock: () => number;
}

export const DEFAULT_CACHE_OPTIONS: HostCacheOptions = {
  pollIntervalMs: 250,
  staleAfterMs: 1000,
  maxAgeMs: 5000,
  maxEntries: 10_000,
  idleStopMs: 10_000,
  clock: () => performance.now(),
};

/** The tables whose changes bump `cache_epoch` (migrations 0006, 0011, 0015): every row an action call's resolution or an account's tool catalog reads. */
export const WATCHED_TABLES = [
  'sessions',
  'users',
  'accounts',
  'memberships',
  'integrations',
  'versions',
  'activations',
  // An account's tools for models (migration 0011): its policies and OAuth connections.
  'tool_policies',
  'oauth_connections',
  // Which sources serve which accounts (migration 0015): the tenancy rule every resolution checks.
  'source_accounts',
] as const;

/**
 * A per-instance memo of what the database answered, dropped on every instance when a watched
 * table changes (any instance, any writer): one row, `cache_epoch`, is bumped by statement
 * triggers and polled. The instance's own writes through the host's `Db` drop it at once.
 * @example const user = await services.cache.memoize(`user:${id}`, () => loadUser(id));
 */
export interface HostCache {
  /**
   * The value cached under `key` while fresh, else `load()`'s, kept when `keep(value)` (default:
   * always; keep only successes, so a failure is asked again). Prefix keys with a name of your own.
   */
  memoize<T>(key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>;
  /** Drops every entry (after this instance's own writes). */
  invalidate(): void;
  /** The bound of {@link HostCacheOptions.staleAfterMs}. */
  readonly staleAfterMs: number;
  /** Polls the epoch now (tests; the poller calls it). */
  poll(): Promise<void>;
  /** Stops the poller. */
  close(): void;
}

interface Entry {
  readonly value: unknown;
  readonly generation: number;
  readonly storedAt: number;
}

/**
 * The host cache over `db`'s `cache_epoch` row. Correctness: an entry is tagged with the cache's
 * generation when its load starts; a poll that sees a new epoch (or the first poll) starts a new
 * generation, so a load that raced a change is never served. Served only while the last
 * successful poll was issued within `staleAfterMs`, so a change committed at `t` is seen by
 * `t + staleAfterMs` whatever happens to the poller.
 */
export function createHostCache(
  db: Queryable,
  logger: Pick<Logger, 'warn'>,
  overrides: Partial<HostCacheOptions> = {},
): HostCache {
  const options = { ...DEFAULT_CACHE_OPTIONS, ...overrides };
  const { clock } = options;
  const entries = new Map<string, Entry>();
  let generation = 0;
  let epoch: string | undefined;
  let lastPollIssuedAt = Number.NEGATIVE_INFINITY;
  let lastUsedAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setInterval> | undefined;
  let failing = false;
  let closed = false;

  const invalidate = () => {
    generation += 1;
    entries.clear();
  };

  async function pollOnce(): Promise<void> {
    const issuedAt = clock();
    try {
      const { rows } = await db.query('SELECT epoch FROM cache_epoch WHERE id = 1');
      // bigint: PGlite answers a number, pg a string.
      const seen = String(rows[0]?.epoch ?? '');
      if (seen !== epoch) {
        epoch = seen;
        invalidate();
      }
      lastPollIssuedAt = Math.max(lastPollIssuedAt, issuedAt);
      failing = false;
    } catch (error) {
      if (!failing && !closed) {
        logger.warn({ err: error }, 'host cache: polling cache_epoch failed; serving from the database');
      }
      failing = true;
    }
  }

  const poll = singleFlight(pollOnce);

  function stop(): void {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  }

  function tick(): void {
    if (clock() - lastUsedAt > options.idleStopMs) {
      // Idle: no query every interval for nothing. The next lookup starts again (and waits one poll).
      stop();
      entries.clear();
      lastPollIssuedAt = Number.NEGATIVE_INFINITY;
      return;
    }
    void poll();
  }

  function start(): void {
    if (timer !== undefined || closed) return;
    timer = setInterval(tick, options.pollIntervalMs);
    timer.unref?.();
    void poll();
  }

  return {
    staleAfterMs: options.staleAfterMs,
    invalidate,
    poll,
    close() {
      closed = true;
      stop();
      entries.clear();
    },
    async memoize<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true) {
      const now = clock();
      lastUsedAt = now;
      start();
      const fresh = now - lastPollIssuedAt <= options.staleAfterMs;
      const entry = entries.get(key);
      if (
        fresh &&
        entry !== undefined &&
        entry.generation === generation &&
        now - entry.storedAt <= options.maxAgeMs
      ) {
        return entry.value as T;
      }
      const startedIn = generation;
      const startedAt = clock();
      const value = await load();
      if (!closed && startedIn === generation && keep(value)) {
        if (entries.size >= options.maxEntries) entries.clear();
        entries.set(key, { value, generation: startedIn, storedAt: startedAt });
      }
      return value;
    },
  };
}

// A statement that may change a watched table: a watched table as the target of a write (also in a
// WITH clause), not one it only reads (a job claim that checks `activations` keeps the cache).
const WRITES_WATCHED = new RegExp(
  `\\b(?:insert\\s+into|update|delete\\s+from|merge\\s+into|truncate(?:\\s+table)?|(?:alter|drop|create)\\s+table(?:\\s+if\\s+(?:not\\s+)?exists)?)\\s+(?:only\\s+)?(?:${WATCHED_TABLES.join('|')})\\b`,
  'i',
);
// A prepared statement's verdict is kept with it: its text never changes.
const preparedVerdicts = new WeakMap<PreparedSql, boolean>();
function mayChangeWatched(sql: Sql): boolean {
  if (typeof sql === 'string') return WRITES_WATCHED.test(sql);
  let verdict = preparedVerdicts.get(sql);
  if (verdict === undefined) {
    verdict = WRITES_WATCHED.test(sql.text);
    preparedVerdicts.set(sql, verdict);
  }
  return verdict;
}

/**
 * `db` that drops `cache` after each of its own writes to a watched table (after the statement,
 * or after the transaction that made it settles), so this instance sees its own changes at once;
 * other instances see them through the epoch within the bound.
 */
export function invalidatingDb(db: Db, cache: Pick<HostCache, 'invalidate'>): Db {
  return {
    engine: db.engine,
    async query(sql, params) {
      if (!mayChangeWatched(sql)) return db.query(sql, params);
      try {
        return await db.query(sql, params);
      } finally {
        cache.invalidate();
      }
    },
    async exec(sql) {
      try {
        await db.exec(sql);
      } finally {
        cache.invalidate();
      }
    },
    async transaction(fn) {
      let wrote = false;
      try {
        return await db.transaction((tx) =>
          fn({
            query(sql, params) {
              if (mayChangeWatched(sql)) wrote = true;
              return tx.query(sql, params);
            },
          }),
        );
      } finally {
        if (wrote) cache.invalidate();
      }
    },
    close: () => db.close(),
  };
}
