import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHostCache, type HostCache, invalidatingDb, WATCHED_TABLES } from '../src/cache/hostCache.js';
import type { Db } from '../src/db/Db.js';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/openDb.js';
import { createRateLimiter, type RateLimiter } from '../src/rateLimit.js';

// The host cache (epoch polled from cache_epoch, bumped by triggers) and the in-memory action rate
// limits, on PGlite with fake clocks. The two-instance PostgreSQL proof is callCache.pg.test.ts.

const quiet = { warn: () => {} };
const epochOf = async (db: Db) => Number((await db.query('SELECT epoch FROM cache_epoch')).rows[0]!.epoch);

describe('the host cache', { timeout: 60_000 }, () => {
  let db: Db;
  let cache: HostCache | undefined;
  let clockMs = 0;
  const clock = () => clockMs;
  const open = (overrides: Parameters<typeof createHostCache>[2] = {}) => {
    cache = createHostCache(db, quiet, { clock, pollIntervalMs: 60_000, ...overrides });
    return cache;
  };
  // Counts loads: what the cache asked the database.
  const counter = () => {
    let loads = 0;
    return {
      load: async () => {
        loads += 1;
        return `value ${loads}`;
      },
      get loads() {
        return loads;
      },
    };
  };

  beforeAll(async () => {
    db = await openDb({});
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
  });
  afterEach(() => {
    cache?.close();
    clockMs = 0;
  });

  it('bumps the epoch on a statement on every watched table, and not on storage', async () => {
    const columns: Record<(typeof WATCHED_TABLES)[number], string> = {
      sessions: 'name',
      users: 'name',
      accounts: 'name',
      memberships: 'role',
      integrations: 'name',
      versions: 'status',
      activations: 'data',
      tool_policies: 'policy',
      oauth_connections: 'scope',
      source_accounts: 'account_id',
    };
    for (const table of WATCHED_TABLES) {
      const before = await epochOf(db);
      // A statement trigger fires even when no row matches.
      await db.query(`UPDATE ${table} SET ${columns[table]} = ${columns[table]} WHERE false`);
      expect({ table, bumped: (await epochOf(db)) > before }).toEqual({ table, bumped: true });
    }
    const before = await epochOf(db);
    await db.query('UPDATE storage SET value = value WHERE false');
    expect(await epochOf(db)).toBe(before);
    // The migrations' triggers and WATCHED_TABLES (this instance's own writes) name the same tables.
    const { rows } = await db.query(
      `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_proc p ON p.oid = t.tgfoid WHERE p.proname = 'bump_cache_epoch'`,
    );
    expect(rows.map((row) => row.name as string).sort()).toEqual([...WATCHED_TABLES].sort());
  });

  it('serves a memoized value only once a poll has been seen, then from memory', async () => {
    const cache = open();
    const source = counter();
    // No poll yet: nothing says the memory is current, so every lookup loads.
    expect(await cache.memoize('k', source.load)).toBe('value 1');
    await cache.poll();
    expect(await cache.memoize('k', source.load)).toBe('value 2');
    expect(await cache.memoize('k', source.load)).toBe('value 2');
    expect(source.loads).toBe(2);
  });

  it('drops every entry when a poll sees a change made by anyone', async () => {
    const cache = open();
    const source = counter();
    await cache.poll();
    await cache.memoize('k', source.load);
    // Another instance's write: straight to the database, not through this instance's Db.
    await db.query("UPDATE users SET name = name WHERE id = 'nobody'");
    expect(await cache.memoize('k', source.load)).toBe('value 1');
    await cache.poll();
    expect(await cache.memoize('k', source.load)).toBe('value 2');
  });

  it('bypasses the memory once the last successful poll is older than the bound', async () => {
    const cache = open({ staleAfterMs: 1000, maxAgeMs: 60_000 });
    const source = counter();
    await cache.poll();
    await cache.memoize('k', source.load);
    // The first lookup started the poller, whose first poll may still run: let it end.
    await cache.poll();
    clockMs = 1001;
    expect(await cache.memoize('k', source.load)).toBe('value 2');
    expect(await cache.memoize('k', source.load)).toBe('value 3');
    await cache.poll();
    expect(await cache.memoize('k', source.load)).toBe('value 3');
  });

  it('reloads an entry past its maximum age even while polls are fresh', async () => {
    const cache = open({ staleAfterMs: 1000, maxAgeMs: 3000 });
    const source = counter();
    await cache.poll();
    await cache.memoize('k', source.load);
    await cache.poll();
    for (const at of [900, 1800, 2700]) {
      clockMs = at;
      await cache.poll();
      expect(await cache.memoize('k', source.load)).toBe('value 1');
    }
    clockMs = 3100;
    await cache.poll();
    expect(await cache.memoize('k', source.load)).toBe('value 2');
  });

  it('keeps only what `keep` accepts', async () => {
    const cache = open();
    await cache.poll();
    let loads = 0;
    const failing = async () => {
      loads += 1;
      return undefined;
    };
    await cache.memoize('k', failing, (value) => value !== undefined);
    await cache.memoize('k', failing, (value) => value !== undefined);
    expect(loads).toBe(2);
  });

  it('does not keep a load that raced a change the poll then saw', async () => {
    const cache = open();
    const source = counter();
    await cache.poll();
    let release: () => void = () => {};
    const slow = cache.memoize('k', async () => {
      // The load read the old row; the change commits and a poll sees it before the load ends.
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return 'stale';
    });
    // The lookup started the poller; let its first poll end before the change.
    await cache.poll();
    await db.query("UPDATE accounts SET name = name WHERE id = 'nobody'");
    await cache.poll();
    release();
    expect(await slow).toBe('stale');
    expect(await cache.memoize('k', source.load)).toBe('value 1');
  });

  it("drops the cache at once after this instance's own writes to a watched table", async () => {
    const cache = open();
    const own = invalidatingDb(db, cache);
    const source = counter();
    await cache.poll();
    await cache.memoize('k', source.load);
    await own.query("UPDATE memberships SET role = role WHERE user_id = 'nobody'");
    expect(await cache.memoize('k', source.load)).toBe('value 2');
    await own.transaction(async (tx) => {
      await tx.query("DELETE FROM activations WHERE account_id = 'nobody'");
    });
    expect(await cache.memoize('k', source.load)).toBe('value 3');
    // Reads and writes elsewhere keep it.
    await own.query('SELECT count(*) FROM sessions');
    await own.query("UPDATE storage SET value = value WHERE key = 'nobody'");
    await own.transaction(async (tx) => {
      await tx.query("UPDATE jobs SET attempts = attempts WHERE integration_slug = 'nobody'");
    });
    await own.query(
      "UPDATE jobs SET attempts = attempts WHERE EXISTS (SELECT 1 FROM activations WHERE account_id = 'nobody')",
    );
    expect(await cache.memoize('k', source.load)).toBe('value 3');
  });

  it('polls on its own while in use, and stops when idle', async () => {
    const cache = open({ pollIntervalMs: 20, idleStopMs: 1000 });
    const source = counter();
    await cache.memoize('k', source.load);
    // The poller started by the lookup makes the memory current without a call to poll().
    const deadline = Date.now() + 10_000;
    while ((await cache.memoize('k', source.load)) !== 'value 2' || source.loads !== 2) {
      if (Date.now() > deadline) throw new Error('the poller never polled');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    clockMs = 2000;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Idle past idleStopMs: the poller stopped and emptied the memory; the next lookup loads.
    expect(await cache.memoize('k', source.load)).toBe('value 3');
  });
});

describe('the in-memory action rate limits', { timeout: 60_000 }, () => {
  let db: Db;
  const limiters: RateLimiter[] = [];
  let nowMs = Date.parse('2026-11-21T12:00:30Z');
  const now = () => new Date(nowMs);
  const limiter = () => {
    const created = createRateLimiter(db, { now, logger: quiet, syncMs: 60_000 });
    limiters.push(created);
    return created;
  };
  let bucketSeq = 0;
  const bucket = (limit: number) => {
    bucketSeq += 1;
    return { key: `user:test-${bucketSeq}`, limit, name: 'per_user' };
  };

  beforeAll(async () => {
    db = await openDb({});
    await migrate(db);
  });
  afterAll(async () => {
    for (const created of limiters) await created.close();
    await db?.close();
  });

  it('is exact in one instance: refuses past the limit with Retry-After, one first refusal', async () => {
    const one = limiter();
    const limited = bucket(3);
    for (let call = 0; call < 3; call += 1)
      expect(await one.consume([limited], now())).toEqual({ allowed: true });
    expect(await one.consume([limited], now())).toEqual({
      allowed: false,
      exceeded: ['per_user'],
      firstRefusal: true,
      retryAfterSeconds: 30,
    });
    expect(await one.consume([limited], now())).toMatchObject({ allowed: false, firstRefusal: false });
    // What it counted reaches the table.
    await one.sync();
    const { rows } = await db.query('SELECT count FROM rate_limits WHERE bucket = $1', [limited.key]);
    expect(rows[0]).toMatchObject({ count: 5 });
  });

  it('names every bucket over its limit, in the order given', async () => {
    const one = limiter();
    const user = bucket(1);
    const account = { ...bucket(1), name: 'per_account' };
    await one.consume([user, account], now());
    expect(await one.consume([user, account], now())).toMatchObject({
      allowed: false,
      exceeded: ['per_user', 'per_account'],
    });
  });

  it('shares counts between instances through the table after a sync', async () => {
    const a = limiter();
    const b = limiter();
    const shared = bucket(4);
    for (let call = 0; call < 3; call += 1) expect((await a.consume([shared], now())).allowed).toBe(true);
    await a.sync();
    await b.sync();
    // b has not counted this bucket before: its first sync of it happens with its first call.
    expect((await b.consume([shared], now())).allowed).toBe(true);
    await b.sync();
    expect(await b.consume([shared], now())).toMatchObject({ allowed: false, firstRefusal: true });
    await a.sync();
    // The same window's first refusal was logged by b: a's refusal is not a first one.
    expect(await a.consume([shared], now())).toMatchObject({ allowed: false, firstRefusal: false });
  });

  it('starts again in the next window', async () => {
    const one = limiter();
    const limited = bucket(1);
    await one.consume([limited], now());
    expect((await one.consume([limited], now())).allowed).toBe(false);
    nowMs += 60_000;
    expect(await one.consume([limited], now())).toEqual({ allowed: true });
    await one.sync();
  });

  it('adds what it counted to the table when closed', async () => {
    const one = createRateLimiter(db, { now, logger: quiet, syncMs: 60_000 });
    const limited = bucket(10);
    await one.consume([limited], now());
    await one.consume([limited], now());
    await one.close();
    const { rows } = await db.query('SELECT count FROM rate_limits WHERE bucket = $1', [limited.key]);
    expect(rows[0]).toMatchObject({ count: 2 });
  });
});
