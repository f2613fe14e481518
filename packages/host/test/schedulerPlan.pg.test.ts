import { createHost, type Host } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlText } from '../src/db/Db.js';
import { installFixture, pgSchema } from './_host.js';
import { testDatabase } from './_postgres.js';

// The scheduler's firing statement on statistics older than the data, as on a host right after
// thousands of activations: 1,000 accounts x 10 schedules, never ANALYZEd. Each page statement is
// first run under EXPLAIN ANALYZE (rolled back) and its plan kept. The plan must find each mark by
// its key: one that compared the page's marks with every pair of the page removed ~1,000,000 rows in
// join filters per page (a page took ~1 s instead of ~85 ms). Then the same on fresh statistics,
// where the statement must read each mark of a page a few times at most: one that read the
// integration's marks once per use scanned all 10,000 four times per page. Row counts, not times,
// are checked.
const { url: baseUrl, skipped } = testDatabase();
const SLUG = 'test-scheduler-scale';
const ACCOUNTS = 1000;
const SCHEDULES = 10;
const MINUTE = Date.parse('2026-11-22T10:00:00Z');

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Actual Rows'?: number;
  readonly 'Actual Loops'?: number;
  readonly 'Rows Removed by Filter'?: number;
  readonly 'Rows Removed by Join Filter'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** Rows the plan's scans of `relation` read (returned or filtered out), over all their loops. */
function rowsScanned(node: PlanNode, relation: string): number {
  const own =
    node['Relation Name'] === relation && node['Node Type'].includes('Scan')
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsScanned(child, relation), 0);
}

/** Rows every join of the plan read and threw away. */
function rowsRemovedByJoinFilters(node: PlanNode): number {
  return (
    (node['Rows Removed by Join Filter'] ?? 0) +
    (node.Plans ?? []).reduce((sum, child) => sum + rowsRemovedByJoinFilters(child), 0)
  );
}

if (baseUrl) {
  describe('the scheduler on stale planner statistics', { timeout: 120_000 }, () => {
    let nowMs = MINUTE - 10 * 60_000;
    let schema: Awaited<ReturnType<typeof pgSchema>>;
    let host: Host;
    const plans: PlanNode[] = [];

    beforeAll(async () => {
      schema = await pgSchema(baseUrl, 'scheduler_plan');
      host = await createHost({
        databaseUrl: schema.url,
        logger: pino({ level: 'silent' }),
        now: () => new Date(nowMs),
        runtime: 'in-process',
      });
      await installFixture(host, 'scheduler-scale');
      const { db } = host;
      await db.query(
        `INSERT INTO accounts (id, slug, name) SELECT 'acct_' || n, 'plan-' || n, 'Plan ' || n FROM generate_series(1, $1) n`,
        [ACCOUNTS],
      );
      await db.query(
        `INSERT INTO activations (integration_slug, account_id, data) SELECT $1, 'acct_' || n, 'null'::jsonb FROM generate_series(1, $2) n`,
        [SLUG, ACCOUNTS],
      );
      // The integration's source serves every account (tenancy: only served accounts fire).
      await db.query(
        `INSERT INTO source_accounts (source_id, account_id)
         SELECT (SELECT source_id FROM integrations WHERE slug = $1), 'acct_' || n FROM generate_series(1, $2) n`,
        [SLUG, ACCOUNTS],
      );
      // Every schedule was considered at 09:59, so 10:00 fires all of them.
      await db.query(
        `INSERT INTO schedule_marks (integration_slug, schedule_id, account_id, last_minute)
         SELECT $1, 'schedule-' || s, 'acct_' || n, $3 FROM generate_series(0, $2 - 1) s, generate_series(1, $4) n`,
        [SLUG, SCHEDULES, new Date(MINUTE - 60_000), ACCOUNTS],
      );
      const query = db.query.bind(db);
      (db as { query: typeof db.query }).query = async (sql, params) => {
        if (/^\s*WITH schedule AS/.test(sqlText(sql))) {
          const rollback = new Error('rolled back');
          await db
            .transaction(async (tx) => {
              const { rows } = await tx.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sqlText(sql)}`, params);
              plans.push((rows[0]!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
              throw rollback;
            })
            .catch((error: unknown) => {
              if (error !== rollback) throw error;
            });
        }
        return query(sql, params);
      };
    });
    afterAll(async () => {
      await host?.close();
      await schema?.drop();
    });

    it('finds each mark of a page by its key: 10,000 runs fired, no join reading past them', async () => {
      nowMs = MINUTE;
      expect(await host.events.scheduler.tick()).toBe(ACCOUNTS * SCHEDULES);
      // Ten pages of 1,000 marks and the empty one that ends the walk.
      expect(plans.length).toBeGreaterThanOrEqual(10);
      const removed = plans.map(rowsRemovedByJoinFilters);
      // A keyed plan removes at most the page's pairs once over (the schedule of each account's marks).
      expect(Math.max(...removed)).toBeLessThanOrEqual(ACCOUNTS * SCHEDULES);
    });

    it('reads each mark of a page a few times at most on fresh statistics, not every mark of the integration', async () => {
      await host.db.query('ANALYZE');
      plans.length = 0;
      nowMs = MINUTE + 60_000;
      // 10:01: the every-minute schedules (4 of the 10) of every account.
      expect(await host.events.scheduler.tick()).toBe(4 * ACCOUNTS);
      expect(plans.length).toBeGreaterThanOrEqual(10);
      // Each of the page's 1,000 marks: found by its key, locked and advanced by its row address.
      const pagePairs = 100 * SCHEDULES;
      expect(Math.max(...plans.map((plan) => rowsScanned(plan, 'schedule_marks')))).toBeLessThanOrEqual(
        3 * pagePairs,
      );
    });
  });
} else {
  describe(`the scheduler on stale planner statistics (skipped: ${skipped})`, () => {
    it.skip('finds each mark of a page by its key', () => {});
  });
}
