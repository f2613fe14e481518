import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/Db.js';
import { migrate } from '../src/db/migrate.js';
import { claimJobs } from '../src/events/jobs.js';
import { testEngines } from './_host.js';
import { testDatabase } from './_postgres.js';

// The claim has two kinds of text (events/jobs.ts `claimStatement`): without an integration at its
// limit and with room for gate jobs the scans filter nothing, and with their limits written in the
// text (a multiple of 8) the database keeps one plan instead of planning every claim. Both take
// the same jobs, each no more than its limit.
const { url: baseUrl, skipped } = testDatabase();
const NOW = new Date('2026-11-22T10:00:00Z');

// One connection on PostgreSQL: the plans a session keeps are read in that session.
const engines = testEngines(baseUrl, 'job_claim', { connections: 1 });
if (baseUrl === undefined) {
  it.skip(`on PostgreSQL (skipped: ${skipped})`, () => {});
}

describe.each(engines)('job claims on %s', (_name, open) => {
  let db: Db;
  let drop: () => Promise<void>;
  let serial = 0;

  /** `count` ready jobs of `slug`, oldest first in the order made. */
  const enqueue = async (slug: string, count: number, kind = 'webhook') => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      serial += 1;
      const id = `job_${String(serial).padStart(4, '0')}`;
      ids.push(id);
      await db.query(
        `INSERT INTO jobs (id, kind, integration_slug, account_id, version_id, payload, max_attempts, run_at, created_at)
         VALUES ($1, $2, $3, 'acct_1', 'ver_1', '{"target":"t"}', 3, $4, $4)`,
        [id, kind, slug, new Date(NOW.getTime() - 60_000 + serial)],
      );
    }
    return ids;
  };
  const claim = (input: { limit: number; running?: Map<string, number>; gateRoom?: number }) =>
    claimJobs(db, {
      worker: 'w1',
      now: NOW,
      leaseMs: 30_000,
      limit: input.limit,
      perIntegration: 100,
      running: input.running ?? new Map(),
      gateRoom: input.gateRoom ?? 1,
    });

  beforeAll(async () => {
    ({ db, drop } = await open());
    await migrate(db);
  });
  afterAll(async () => {
    await drop?.();
  });

  it('leaves out an integration at its limit, and gate jobs without room; takes the oldest first', async () => {
    const full = await enqueue('full', 2);
    const gate = await enqueue('gates', 1, 'gate');
    const open = await enqueue('open', 2);
    const taken = await claim({ limit: 10, running: new Map([['full', 100]]), gateRoom: 0 });
    expect(taken.map((job) => job.id)).toEqual(open);
    // Unfiltered: the rest, oldest first.
    expect((await claim({ limit: 10 })).map((job) => job.id)).toEqual([...full, ...gate]);
  });

  it("takes more than 64 jobs in one claim (the scans' limit then goes as a parameter)", async () => {
    const many = await enqueue('many', 70);
    expect((await claim({ limit: 100 })).map((job) => job.id)).toEqual(many);
    const some = await enqueue('some', 3);
    const filtered = await claim({ limit: 100, running: new Map([['other', 100]]) });
    expect(filtered.map((job) => job.id)).toEqual(some);
  });

  it('plans the unfiltered claim once and keeps that plan for the next claims', async () => {
    // A queue as at a burst (10,000 due schedule runs in the bench): with the limit as a parameter,
    // the plan the database could keep sorted every ready job, so it planned each claim anew.
    await db.query(
      `INSERT INTO jobs (id, kind, integration_slug, account_id, version_id, payload, max_attempts, run_at, created_at)
       SELECT 'burst_' || n, 'schedule', 'planned', 'acct_1', 'ver_1', '{"target":"t"}', 3, $1, $1
       FROM generate_series(1, 5000) n`,
      [new Date(NOW.getTime() - 1000)],
    );
    await db.query('ANALYZE jobs');
    for (let index = 0; index < 8; index += 1) expect(await claim({ limit: 4 })).toHaveLength(4);
    // Every unfiltered claim text of this session: none planned more than the first five times.
    const { rows } = await db.query(
      `SELECT max(custom_plans)::int AS custom, sum(generic_plans)::int AS generic FROM pg_prepared_statements
       WHERE statement LIKE 'WITH queued AS%' AND statement NOT LIKE '%ANY($8%'`,
    );
    expect(rows).toEqual([{ custom: 5, generic: 3 }]);
  });
});
