import { checkCron } from '@platform/integration-schema';
import { type DefinitionManifest, redactText } from '@platform/sdk/runtime';
import { Cron } from 'croner';
import type { HostServices } from '../HostServices.js';
import { enqueueJob } from './jobs.js';

export interface SchedulerOptions {
  /** How often the scheduler looks at the clock (real time). Default 1 s. */
  readonly pollMs?: number;
}

export interface Scheduler {
  /** Queues the runs due at the clock's current minute; answers how many it queued. */
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const MINUTE = 60_000;
// A schedule that fires every minute after a year of downtime: bounded search for the last time missed.
const MAX_STEPS = 600_000;

const floorMinute = (date: Date) => new Date(Math.floor(date.getTime() / MINUTE) * MINUTE);

/**
 * Fires each declared schedule of each live version once per activated account at each cron
 * minute (UTC), by queueing a job. Every instance runs one; no leader: a row per (integration,
 * schedule, account) records the last minute considered, and its row lock lets one instance
 * advance it; the job's unique key (version, schedule, account, minute) guards once more.
 * After downtime, only the latest missed time runs (one catch-up). Versions and activations are
 * read at each tick, so a new version or a deactivation takes effect at the next one.
 * @example const scheduler = createScheduler(host.services); scheduler.start();
 */
export function createScheduler(services: HostServices, options: SchedulerOptions = {}): Scheduler {
  const pollMs = options.pollMs ?? 1000;
  const crons = new Map<string, Cron | undefined>();
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

  /** The latest cron time in (after, upTo], if any. */
  function latestDue(cron: Cron, after: Date, upTo: Date): Date | undefined {
    let found: Date | undefined;
    let cursor = after;
    for (let step = 0; step < MAX_STEPS; step += 1) {
      const next = cron.nextRun(cursor);
      if (next === null || next.getTime() > upTo.getTime()) break;
      found = next;
      cursor = next;
    }
    return found;
  }

  async function fireOne(input: {
    slug: string;
    versionId: string;
    scheduleId: string;
    cron: Cron;
    accountId: string;
    minute: Date;
  }): Promise<boolean> {
    return services.db.transaction(async (tx) => {
      const key = [input.slug, input.scheduleId, input.accountId];
      const inserted = await tx.query(
        `INSERT INTO schedule_marks (integration_slug, schedule_id, account_id, last_minute) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [...key, input.minute],
      );
      let due: Date | undefined;
      if (inserted.rowCount > 0) {
        // First sight of this schedule for this account: from now on, no catch-up of earlier times.
        due = latestDue(input.cron, new Date(input.minute.getTime() - 1000), input.minute);
      } else {
        const { rows } = await tx.query(
          `SELECT last_minute FROM schedule_marks
           WHERE integration_slug = $1 AND schedule_id = $2 AND account_id = $3 FOR UPDATE`,
          key,
        );
        const last = new Date(rows[0]!.last_minute as string);
        if (last.getTime() >= input.minute.getTime()) return false;
        await tx.query(
          `UPDATE schedule_marks SET last_minute = $4
           WHERE integration_slug = $1 AND schedule_id = $2 AND account_id = $3`,
          [...key, input.minute],
        );
        due = latestDue(input.cron, last, input.minute);
      }
      if (due === undefined) return false;
      const id = await enqueueJob(tx, {
        kind: 'schedule',
        slug: input.slug,
        accountId: input.accountId,
        versionId: input.versionId,
        target: input.scheduleId,
        uniqueKey: `schedule:${input.versionId}:${input.scheduleId}:${input.accountId}:${due.toISOString()}`,
        // A failed run is logged, not retried; a run whose worker died is failed when its lease ends.
        maxAttempts: 1,
        runAt: input.minute,
      });
      return id !== undefined;
    });
  }

  async function tickNow(): Promise<number> {
    const minute = floorMinute(services.now());
    const { rows } = await services.db.query(
      `SELECT i.slug, v.id AS version_id, v.manifest, a.account_id
       FROM integrations i
       JOIN versions v ON v.id = i.live_version_id
       JOIN activations a ON a.integration_slug = i.slug
       WHERE jsonb_array_length(COALESCE(v.manifest->'schedules', '[]'::jsonb)) > 0
       ORDER BY i.slug, a.account_id`,
    );
    let fired = 0;
    for (const row of rows) {
      const manifest = row.manifest as DefinitionManifest;
      for (const schedule of manifest.schedules) {
        const cron = cronOf(schedule.cron);
        if (cron === undefined) continue;
        const queued = await fireOne({
          slug: row.slug as string,
          versionId: row.version_id as string,
          scheduleId: schedule.id,
          cron,
          accountId: row.account_id as string,
          minute,
        });
        if (queued) fired += 1;
      }
    }
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
    timer = setTimeout(() => {
      const due = floorMinute(services.now()).getTime() > lastMinute;
      (due ? tick() : Promise.resolve(0))
        .catch((error) => services.logger.error({ err: error }, 'scheduler tick failed'))
        .finally(() => {
          if (timer !== undefined) loop();
        });
    }, pollMs);
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
