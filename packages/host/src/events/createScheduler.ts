import { checkCron } from '@platform/integration-schema';
import { type DefinitionManifest, redactText } from '@platform/sdk/runtime';
import { Cron } from 'croner';
import type { HostServices } from '../HostServices.js';
import { sourceServesAccountSql } from '../store/integrations.js';
import { enqueueDueRefreshes } from './oauthRefreshJob.js';

export interface SchedulerOptions {
  /** How often the scheduler looks at the clock (real time) at most; it also wakes as each minute begins. Default 1 s. */
  readonly pollMs?: number;
}

export interface Scheduler {
  /** Queues the runs due at the clock's current minute; answers how many it queued. */
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const MINUTE = 60_000;
/** Marks (schedule x account) one statement considers: bounds its locks and its time in a transaction. */
const ROWS_PER_STATEMENT = 1000;

/** A tick that queued at least this many jobs refreshes the planner's statistics of `jobs`. */
const ANALYZE_AFTER_JOBS = 1000;

const floorMinute = (date: Date) => new Date(Math.floor(date.getTime() / MINUTE) * MINUTE);

/** One integration's live version and, per declared schedule, its latest cron time at or before the minute. */
interface FireTarget {
  readonly slug: string;
  readonly versionId: string;
  readonly schedules: readonly { readonly id: string; readonly due: Date | undefined }[];
}

/**
 * One page of an integration's activated accounts (after $7, up to $8 when given, at most $9), for
 * every schedule $4 with its latest cron time $5 (ISO $6) at or before the minute $3, in one
 * statement: marks seen for the first time are inserted at $3 and fire only if due at $3; stale
 * marks are locked (the other instance's are skipped with `SKIP LOCKED`, or waited for), advanced
 * to $3, and fire if their due time is later than the minute they had reached (one catch-up after
 * downtime). Each firing inserts a job with the unique key (version, schedule, account, due time).
 * Answers the jobs queued, the stale marks not locked here (`skipped`), and the page's last account.
 */
const fireSql = (lock: 'FOR UPDATE OF m SKIP LOCKED' | 'FOR UPDATE OF m') => `
WITH schedule AS (
  SELECT * FROM unnest($4::text[], $5::timestamptz[], $6::text[]) AS s (id, due, due_iso)
), account AS (
  -- Activated and served: a source that stops serving an account stops firing its schedules
  -- (the job claim refuses the job too; this keeps a failed row per minute from piling up).
  SELECT a.account_id FROM activations a
  WHERE a.integration_slug = $1 AND a.account_id > $7 AND ($8::text IS NULL OR a.account_id <= $8)
    AND ${sourceServesAccountSql('(SELECT i.source_id FROM integrations i WHERE i.slug = $1)', 'a.account_id')}
  ORDER BY a.account_id LIMIT $9
), page AS MATERIALIZED (
  -- The page's (schedule, account) pairs, as one relation: each is a key of the marks' index.
  SELECT s.id AS schedule_id, a.account_id FROM account a CROSS JOIN schedule s
), known AS MATERIALIZED (
  -- The page's marks, read once, each by its whole key (OFFSET 0 keeps the lookup apart from the
  -- join, so no plan compares the page's pairs with a range of marks, whatever the statistics).
  SELECT m.tid, m.schedule_id, m.account_id, m.last_minute FROM page k
  CROSS JOIN LATERAL (
    SELECT ctid AS tid, schedule_id, account_id, last_minute FROM schedule_marks
    WHERE integration_slug = $1 AND schedule_id = k.schedule_id AND account_id = k.account_id
    OFFSET 0
  ) m
), fresh AS (
  INSERT INTO schedule_marks (integration_slug, schedule_id, account_id, last_minute)
  SELECT $1, k.schedule_id, k.account_id, $3 FROM page k
  WHERE NOT EXISTS (SELECT 1 FROM known m WHERE m.schedule_id = k.schedule_id AND m.account_id = k.account_id)
  ON CONFLICT DO NOTHING
  RETURNING schedule_id, account_id
), stale AS (
  SELECT tid FROM known WHERE last_minute < $3
), claimed AS (
  -- The stale ones by their row address. A mark another transaction advanced meanwhile is locked
  -- in its new version, which the condition on last_minute then leaves out.
  SELECT m.ctid AS tid, m.schedule_id, m.account_id, m.last_minute FROM schedule_marks m
  WHERE m.ctid = ANY (ARRAY(SELECT tid FROM stale)) AND m.last_minute < $3
  ${lock}
), advanced AS (
  -- Locked above, so each row is still the version that was locked there.
  UPDATE schedule_marks m SET last_minute = $3 FROM claimed c
  WHERE m.ctid = c.tid
  RETURNING c.schedule_id, c.account_id, c.last_minute AS previous
), due AS (
  SELECT a.schedule_id, a.account_id, s.due_iso FROM advanced a JOIN schedule s ON s.id = a.schedule_id
  WHERE s.due > a.previous
  UNION ALL
  SELECT f.schedule_id, f.account_id, s.due_iso FROM fresh f JOIN schedule s ON s.id = f.schedule_id
  WHERE s.due = $3
), queued AS (
  -- A failed run is logged, not retried (max_attempts 1); a run whose worker died is failed when its lease ends.
  INSERT INTO jobs (id, kind, integration_slug, account_id, version_id, payload, unique_key, max_attempts, run_at, created_at)
  SELECT gen_random_uuid()::text, 'schedule', $1, d.account_id, $2, jsonb_build_object('target', d.schedule_id),
    'schedule:' || $2 || ':' || d.schedule_id || ':' || d.account_id || ':' || d.due_iso, 1, $3, $3
  FROM due d
  ON CONFLICT (unique_key) DO NOTHING
  RETURNING 1
)
SELECT (SELECT count(*) FROM queued)::int AS fired,
  ((SELECT count(*) FROM stale) - (SELECT count(*) FROM claimed))::int AS skipped,
  (SELECT max(account_id) FROM account) AS last_account`;
const FIRE_SQL_SKIP_LOCKED = fireSql('FOR UPDATE OF m SKIP LOCKED');
const FIRE_SQL = fireSql('FOR UPDATE OF m');

/**
 * Fires each declared schedule of each live version once per activated account at each cron
 * minute (UTC), by queueing a job. Every instance runs one; no leader: a row per (integration,
 * schedule, account) records the last minute considered, and its row lock lets one instance
 * advance it; the job's unique key (version, schedule, account, minute) guards once more.
 * After downtime, only the latest missed time runs (one catch-up). Versions and activations are
 * read at each tick, so a new version or a deactivation takes effect at the next one. A tick fires
 * in bulk, a page of accounts per statement ({@link fireSql}); marks another instance holds are
 * skipped, then waited for at the end of the tick, so a crash before its commit fires them here.
 * @example const scheduler = createScheduler(host.services); scheduler.start();
 */
export function createScheduler(services: HostServices, options: SchedulerOptions = {}): Scheduler {
  const pollMs = options.pollMs ?? 1000;
  const crons = new Map<string, Cron | undefined>();
  const dues = new Map<string, Date | undefined>();
  let dueMinute = 0;
  let lastMinute = 0;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<number> | undefined;

  function cronOf(expression: string): Cron | undefined {
    if (!crons.has(expression)) {
      // Our strict grammar first: the library accepts more (names, macros, seconds) than the spec allows.
      const checked = checkCron(expression);
      // The expression is the partner's text (installed versions were checked, so this is rare).
      if (!checked.ok) {
        services.logger.warn(
          { cron: redactText(expression).slice(0, 200) },
          `schedule skipped: ${redactText(checked.message).slice(0, 500)}`,
        );
      }
      crons.set(expression, checked.ok ? new Cron(expression, { timezone: 'UTC', paused: true }) : undefined);
    }
    return crons.get(expression);
  }

  /**
   * The latest cron time at or before `minute`, if any, computed once per expression and minute.
   * A mark that reached minute L fires it when it is later than L: the latest time in (L, minute].
   */
  function latestAtOrBefore(expression: string, minute: Date): Date | undefined {
    if (dueMinute !== minute.getTime()) {
      dueMinute = minute.getTime();
      dues.clear();
    }
    if (!dues.has(expression)) {
      const cron = cronOf(expression);
      dues.set(expression, cron?.previousRuns(1, new Date(minute.getTime() + 1))[0] ?? undefined);
    }
    return dues.get(expression);
  }

  /**
   * Fires `target`'s due schedules at `minute` for the activated accounts in `range` (at most a
   * page of them when `upTo` is null): one statement, see {@link fireSql}.
   */
  async function firePage(
    target: FireTarget,
    minute: Date,
    range: { after: string; upTo: string | null },
    skipLocked: boolean,
  ): Promise<{ fired: number; skipped: number; lastAccount: string | null }> {
    const { rows } = await services.db.query(skipLocked ? FIRE_SQL_SKIP_LOCKED : FIRE_SQL, [
      target.slug,
      target.versionId,
      minute,
      target.schedules.map((schedule) => schedule.id),
      target.schedules.map((schedule) => schedule.due ?? null),
      target.schedules.map((schedule) => schedule.due?.toISOString() ?? null),
      range.after,
      range.upTo,
      range.upTo === null ? Math.max(1, Math.floor(ROWS_PER_STATEMENT / target.schedules.length)) : null,
    ]);
    const row = rows[0]!;
    // The statement committed its jobs: this instance's worker claims them now, not at its poll.
    if ((row.fired as number) > 0) services.jobsQueued.notify();
    return {
      fired: row.fired as number,
      skipped: row.skipped as number,
      lastAccount: (row.last_account as string | null) ?? null,
    };
  }

  /** Whether marks of activated, served accounts in `range` have not reached `minute` (a cheap look, no lock). */
  async function anyStale(
    target: FireTarget,
    minute: Date,
    range: { after: string; upTo: string },
  ): Promise<boolean> {
    const { rowCount } = await services.db.query(
      `SELECT 1 FROM schedule_marks m
       WHERE m.integration_slug = $1 AND m.schedule_id = ANY($2::text[]) AND m.account_id > $3 AND m.account_id <= $4
         AND m.last_minute < $5
         AND EXISTS (SELECT 1 FROM activations a WHERE a.integration_slug = $1 AND a.account_id = m.account_id)
         AND ${sourceServesAccountSql('(SELECT i.source_id FROM integrations i WHERE i.slug = $1)', 'm.account_id')}
       LIMIT 1`,
      [target.slug, target.schedules.map((schedule) => schedule.id), range.after, range.upTo, minute],
    );
    return rowCount > 0;
  }

  async function tickNow(): Promise<number> {
    const minute = floorMinute(services.now());
    // One row per integration with schedules and an activation; the accounts are paged in SQL.
    const { rows } = await services.db.query(
      `SELECT i.slug, v.id AS version_id, v.manifest->'schedules' AS schedules
       FROM integrations i
       JOIN versions v ON v.id = i.live_version_id
       WHERE jsonb_array_length(COALESCE(v.manifest->'schedules', '[]'::jsonb)) > 0
         AND EXISTS (SELECT 1 FROM activations a WHERE a.integration_slug = i.slug)
       ORDER BY i.slug`,
    );
    let fired = 0;
    const recheck: { target: FireTarget; range: { after: string; upTo: string } }[] = [];
    for (const row of rows) {
      const declared = row.schedules as DefinitionManifest['schedules'];
      const schedules: { id: string; due: Date | undefined }[] = [];
      for (const schedule of declared) {
        if (cronOf(schedule.cron) === undefined) continue;
        schedules.push({ id: schedule.id, due: latestAtOrBefore(schedule.cron, minute) });
      }
      if (schedules.length === 0) continue;
      const target: FireTarget = { slug: row.slug as string, versionId: row.version_id as string, schedules };
      // Pages of accounts in order; marks another instance holds are skipped, not waited for.
      let after = '';
      for (;;) {
        const page = await firePage(target, minute, { after, upTo: null }, true);
        fired += page.fired;
        if (page.lastAccount === null) break;
        if (page.skipped > 0) recheck.push({ target, range: { after, upTo: page.lastAccount } });
        after = page.lastAccount;
      }
    }
    // Pages where another instance held marks: wait for its transaction now (it has most likely
    // committed, advancing them); if it rolled back (a crash before its commit), fire them here.
    for (const { target, range } of recheck) {
      if (await anyStale(target, minute, range))
        fired += (await firePage(target, minute, range, false)).fired;
    }
    // Thousands of queued rows at once: the planner's statistics still say the queue is short and
    // it would sort every ready row at each claim instead of reading the claim index in order.
    if (fired >= ANALYZE_AFTER_JOBS) await services.db.query('ANALYZE (SKIP_LOCKED) jobs');
    // OAuth connections due for a refresh before the next tick (not counted: they are not schedule runs).
    await enqueueDueRefreshes(services);
    lastMinute = minute.getTime();
    return fired;
  }

  function tick(): Promise<number> {
    ticking ??= tickNow().finally(() => {
      ticking = undefined;
    });
    return ticking;
  }

  function loop(): void {
    // Awake just after each minute begins (on the host's clock), so a due run is queued at once.
    const toNextMinute = MINUTE - (services.now().getTime() % MINUTE) + 1;
    timer = setTimeout(
      () => {
        const due = floorMinute(services.now()).getTime() > lastMinute;
        (due ? tick() : Promise.resolve(0))
          .catch((error) => services.logger.error({ err: error }, 'scheduler tick failed'))
          .finally(() => {
            if (timer !== undefined) loop();
          });
      },
      Math.min(pollMs, toNextMinute),
    );
  }

  return {
    tick,
    start() {
      if (timer !== undefined) return;
      lastMinute = 0;
      loop();
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await ticking?.catch(() => {});
    },
  };
}
