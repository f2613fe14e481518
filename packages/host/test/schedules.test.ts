import { createScheduler, installProject } from '@platform/host';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueJob } from '../src/events/jobs.js';
import {
  addSourceAccount,
  deleteActivation,
  removeSourceAccount,
  upsertActivation,
} from '../src/store/integrations.js';
import { FIXTURES, partnerLog, startTestHost, type TestHost, watchStatements } from './_host.js';

const SLUG = 'test-events';
// What the fixture's handlers saw, from their `seen` log lines.
const log = partnerLog();
const seen = () => log.reported<{ event: string; actor: string; userStorage: string }>('seen', 'seen');

/** Queues `count` runs of the live version's every-minute schedule, keyed `${prefix}-${n}`. */
async function enqueueRuns(host: TestHost, count: number, prefix: string, runAt: Date): Promise<void> {
  const { rows } = await host.db.query('SELECT live_version_id FROM integrations WHERE slug = $1', [SLUG]);
  for (let index = 0; index < count; index += 1) {
    await enqueueJob(host.db, {
      kind: 'schedule',
      slug: SLUG,
      accountId: host.accountId,
      versionId: rows[0]!.live_version_id as string,
      target: 'every-minute',
      uniqueKey: `${prefix}-${index}`,
      maxAttempts: 1,
      runAt,
    });
  }
}

/** Waits for `check` (every 20 ms, at most 20 s: a worker that only polls would take ten minutes). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('scheduler', () => {
  let host: TestHost;
  let nowMs = Date.parse('2026-11-22T10:00:10Z');
  const at = (iso: string) => {
    nowMs = Date.parse(iso);
  };
  const queued = async () =>
    (
      await host.db.query(
        "SELECT payload->>'target' AS target, version_id, run_at, status, last_error FROM jobs WHERE kind = 'schedule' ORDER BY created_at, payload->>'target'",
      )
    ).rows;

  beforeAll(async () => {
    host = await startTestHost({ logger: log.logger, projects: ['events'], now: () => new Date(nowMs) });
  });
  afterAll(async () => {
    await host?.close();
  });
  beforeEach(() => {
    log.clear();
  });

  it('fires each schedule once per account at each cron minute, as a machine actor', async () => {
    at('2026-11-22T10:00:10Z');
    expect(await host.events.scheduler.tick()).toBe(2); // 10:00 matches * * * * * and */5
    // The same minute again, from this instance or another (a second scheduler on the same database).
    expect(await host.events.scheduler.tick()).toBe(0);
    at('2026-11-22T10:00:50Z');
    expect(await createScheduler(host.services).tick()).toBe(0);
    expect(await host.events.worker.drain()).toBe(2);
    expect(
      seen()
        .map((event) => event.event)
        .sort(),
    ).toEqual(['every-five', 'every-minute']);
    expect(seen()[0]).toMatchObject({
      actor: 'machine',
      userStorage: 'MachineActorStorageError',
    });
    at('2026-11-22T10:01:00Z');
    expect(await host.events.scheduler.tick()).toBe(1);
    expect((await queued()).map((row) => row.target)).toEqual(['every-five', 'every-minute', 'every-minute']);
  });

  it('after downtime runs one catch-up per schedule and account, not one per missed minute', async () => {
    at('2026-11-22T10:17:20Z');
    const before = (await queued()).length;
    expect(await host.events.scheduler.tick()).toBe(2); // every-minute (10:17) and every-five (10:15)
    expect(await host.events.scheduler.tick()).toBe(0);
    const rows = (await queued()).slice(before);
    expect(rows.map((row) => row.target).sort()).toEqual(['every-five', 'every-minute']);
    await host.events.worker.drain();
  });

  it('records a run log, a failed run is not retried', async () => {
    const response = await host.call(
      `/api/integrations/${SLUG}/deliveries?accountId=${host.accountId}&limit=500`,
    );
    const { data } = (await response.json()) as { data: { entries: { kind: string; status: string }[] } };
    expect(data.entries.length).toBeGreaterThanOrEqual(5);
    expect(data.entries.every((entry) => entry.kind === 'schedule' && entry.status === 'succeeded')).toBe(
      true,
    );
  });

  it('a new version takes effect at the next tick; a deactivation too', async () => {
    const { versions } = await installProject({
      db: host.db,
      runtime: host.services.runtime,
      projectDir: `${FIXTURES}events`,
    });
    at('2026-11-22T10:18:00Z');
    const before = (await queued()).length;
    expect(await host.events.scheduler.tick()).toBe(1);
    expect((await queued())[before]).toMatchObject({ target: 'every-minute', version_id: versions[0]!.id });

    await deleteActivation(host.db, SLUG, host.accountId);
    at('2026-11-22T10:19:00Z');
    expect(await host.events.scheduler.tick()).toBe(0);
    // A run queued before the deactivation does not run the handler for the deactivated account.
    expect(await host.events.worker.drain()).toBe(1);
    expect(seen()).toEqual([]);
    expect((await queued()).at(-1)).toMatchObject({
      status: 'failed',
      last_error: expect.stringContaining('no longer activated'),
    });

    await upsertActivation(host.db, {
      slug: SLUG,
      accountId: host.accountId,
      userId: host.userId,
      data: null,
    });
    at('2026-11-22T10:20:00Z');
    expect(await host.events.scheduler.tick()).toBe(2);
  });

  it('fires nothing for an account its source stopped serving, and again once it serves it (tenancy)', async () => {
    const { rows } = await host.db.query('SELECT source_id FROM integrations WHERE slug = $1', [SLUG]);
    const sourceId = rows[0]!.source_id as string;
    at('2026-11-22T10:21:00Z');
    expect(await host.events.scheduler.tick()).toBe(1);
    expect(await removeSourceAccount(host.db, sourceId, host.accountId)).toBe(true);
    const before = (await queued()).length;
    at('2026-11-22T10:22:00Z');
    expect(await host.events.scheduler.tick()).toBe(0);
    at('2026-11-22T10:25:00Z');
    expect(await host.events.scheduler.tick()).toBe(0);
    // No job row at all: not one queued and failed at claim each minute.
    expect((await queued()).length).toBe(before);
    await addSourceAccount(host.db, sourceId, host.accountId);
    // Served again: each schedule fires, the every-five one as the catch-up of 10:25.
    at('2026-11-22T10:26:00Z');
    expect(await host.events.scheduler.tick()).toBe(2);
  });

  it('fails a run whose worker died instead of running it twice', async () => {
    at('2026-11-22T10:30:00Z');
    expect(await host.events.scheduler.tick()).toBe(2);
    await host.db.query(
      "UPDATE jobs SET status = 'running', locked_by = 'dead', locked_until = $1, attempts = 1 WHERE status = 'queued'",
      [new Date(nowMs + 1000)],
    );
    at('2026-11-22T10:30:02Z');
    expect(await host.events.worker.drain()).toBe(0);
    expect(seen()).toEqual([]);
    const failed = (await queued()).filter((row) => row.status === 'failed');
    expect(failed.slice(-2)).toEqual([
      expect.objectContaining({ last_error: 'the worker running it stopped before it finished' }),
      expect.objectContaining({ last_error: 'the worker running it stopped before it finished' }),
    ]);
  });

  it('limits jobs per integration in one instance so one integration cannot take every slot', async () => {
    const { createJobWorker } = await import('@platform/host');
    await host.db.query("DELETE FROM jobs WHERE status = 'queued'");
    for (let index = 0; index < 3; index += 1) {
      await host.app.request(`/api/integrations/${SLUG}/webhooks/flaky?accountId=${host.accountId}`, {
        method: 'POST',
        body: JSON.stringify({ id: `c${index}` }),
      });
    }
    // One runs, and one more is claimed ahead to start as it ends: the third is left to others.
    const worker = createJobWorker(host.services, { concurrency: 4, perIntegration: 1 });
    expect(await worker.fill()).toBe(1);
    expect(worker.running).toBe(1);
    expect(worker.inFlight).toBe(2);
    await worker.stop(5000);
    // Without claiming ahead, only the one that runs.
    const alone = createJobWorker(host.services, { concurrency: 4, perIntegration: 1, claimAhead: 0 });
    expect(await alone.fill()).toBe(1);
    expect(alone.inFlight).toBe(1);
    await alone.stop(5000);
  });

  it('hands the jobs it claimed ahead back when it stops, with their attempt, for another to run', async () => {
    await host.db.query("DELETE FROM jobs WHERE status = 'queued'");
    await enqueueRuns(host, 3, 'ahead', new Date(nowMs - 1000));
    const { createJobWorker } = await import('@platform/host');
    const worker = createJobWorker(host.services, { concurrency: 1, claimAhead: 2 });
    // One claim takes all three: one starts, two wait for its slot.
    expect(await worker.fill()).toBe(1);
    expect(worker.inFlight).toBe(3);
    expect(await worker.stop(10_000)).toBe(2);
    const { rows } = await host.db.query(
      "SELECT status, attempts, locked_by FROM jobs WHERE unique_key LIKE 'ahead-%' ORDER BY status",
    );
    expect(rows).toEqual([
      { status: 'queued', attempts: 0, locked_by: null },
      { status: 'queued', attempts: 0, locked_by: null },
      { status: 'succeeded', attempts: 1, locked_by: worker.instanceId },
    ]);
    // Schedule runs get one attempt: the two handed back still have theirs, and run once each.
    expect(await createJobWorker(host.services).drain()).toBe(2);
    const { rows: done } = await host.db.query(
      "SELECT status, count(*)::int AS n FROM jobs WHERE unique_key LIKE 'ahead-%' GROUP BY status",
    );
    expect(done).toEqual([{ status: 'succeeded', n: 3 }]);
  });

  it('starts the jobs its own instance queued at once, not at its next poll', async () => {
    await host.db.query("DELETE FROM jobs WHERE status = 'queued'");
    const { createJobWorker } = await import('@platform/host');
    const claims = watchStatements(host, /^\s*WITH queued AS/);
    const worker = createJobWorker(host.services, { pollMs: 600_000 });
    const finished = async (where: string) =>
      (await host.db.query(`SELECT 1 FROM jobs WHERE ${where} AND status IN ('succeeded', 'failed')`))
        .rowCount > 0;
    try {
      worker.start();
      // Its first poll found nothing; the next one is ten minutes away.
      await until(async () => claims.answered > 0 && worker.inFlight === 0);
      at('2026-11-22T11:00:10Z');
      expect(await host.events.scheduler.tick()).toBe(2);
      await until(() => finished(`kind = 'schedule' AND run_at = '2026-11-22T11:00:00Z'`));
      const response = await host.app.request(
        `/api/integrations/${SLUG}/webhooks/flaky?accountId=${host.accountId}`,
        { method: 'POST', body: JSON.stringify({ id: 'woken' }) },
      );
      expect(response.status).toBe(202);
      await until(() => finished(`kind = 'webhook' AND body::jsonb->>'id' = 'woken'`));
    } finally {
      claims.stop();
      await worker.stop(10_000);
    }
  });

  it('claims about once per job while one integration is at its limit and no other has work', async () => {
    await host.db.query("DELETE FROM jobs WHERE status = 'queued'");
    const JOBS = 16;
    await enqueueRuns(host, JOBS, 'claim-count', new Date(nowMs - 1000));
    // A claim leaving the integration out reads past all its ready jobs: after it found nothing,
    // the worker waits for its poll (a minute here) instead of asking again after every job.
    const claims = watchStatements(host, /^\s*WITH queued AS/);
    try {
      const worker = (await import('@platform/host')).createJobWorker(host.services, {
        concurrency: 4,
        perIntegration: 2,
        pollMs: 60_000,
      });
      expect(await worker.drain()).toBe(JOBS);
      await worker.stop(5000);
    } finally {
      claims.stop();
    }
    expect(seen().filter((line) => line.event === 'every-minute')).toHaveLength(JOBS);
    // One claim per job at most, plus the one that found the others empty and, at the end, up to
    // three that find the queue empty (after each of the last two jobs, and the drain's last look).
    // Asking again after every job was twice as many.
    expect(claims.texts.length).toBeLessThanOrEqual(JOBS + 4);
  });
});

describe("a burst of one version's jobs", () => {
  let host: TestHost;
  const nowMs = Date.parse('2026-11-22T10:00:10Z');

  beforeAll(async () => {
    host = await startTestHost({ logger: log.logger, projects: ['events'], now: () => new Date(nowMs) });
  });
  afterAll(async () => {
    await host?.close();
  });

  it('reads the version once in an instance, however many of its jobs one claim starts', async () => {
    const JOBS = 8;
    await enqueueRuns(host, JOBS, 'burst', new Date(nowMs - 1000));
    const versionReads = watchStatements(host, /FROM versions v JOIN integrations/);
    try {
      // One claim takes all eight; each job asks for the version before any read has answered.
      expect(await host.events.worker.drain()).toBe(JOBS);
    } finally {
      versionReads.stop();
    }
    expect(versionReads.texts).toHaveLength(1);
    const { rows: done } = await host.db.query(
      "SELECT status, count(*)::int AS n FROM jobs WHERE unique_key LIKE 'burst-%' GROUP BY status",
    );
    expect(done).toEqual([{ status: 'succeeded', n: JOBS }]);
  });
});
