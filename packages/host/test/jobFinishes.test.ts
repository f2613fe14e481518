import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobWorker } from '../src/events/createJobWorker.js';
import { claimJobs, enqueueJob, type FinishJobInput } from '../src/events/jobs.js';
import { writeStorage } from '../src/store/storage.js';
import { startTestHost, type TestHost, watchStatements } from './_host.js';

// Job outcomes recorded outside a transaction go through the host's group commit
// (`services.jobFinishes` over `finishJobs`): outcomes submitted together share one UPDATE, each
// answers whether its worker still held the job, and the close writes what is still waiting.
const SLUG = 'test-events';

describe('job outcomes: group commit', () => {
  let host: TestHost;
  const now = new Date('2026-11-22T10:00:00Z');
  let finishes: ReturnType<typeof watchStatements>;

  // A delivery to `target` of the live version, due a second ago.
  const enqueue = async (target: string, body: string, maxAttempts: number) => {
    const { rows } = await host.db.query('SELECT live_version_id FROM integrations WHERE slug = $1', [SLUG]);
    await enqueueJob(host.db, {
      kind: 'webhook',
      slug: SLUG,
      accountId: host.accountId,
      versionId: rows[0]!.live_version_id as string,
      target,
      body,
      maxAttempts,
      runAt: new Date(now.getTime() - 1000),
    });
  };
  const jobs = async (count: number, worker: string) => {
    for (let index = 0; index < count; index += 1) await enqueue('github-push', '{}', 5);
    return claimJobs(host.db, {
      worker,
      now,
      leaseMs: 30_000,
      limit: count,
      perIntegration: count,
      running: new Map(),
      gateRoom: 0,
    });
  };
  const row = async (id: string) =>
    (
      await host.db.query(
        'SELECT status, attempts, conflicts, last_error, locked_by, run_at FROM jobs WHERE id = $1',
        [id],
      )
    ).rows[0]!;
  const input = (jobId: string, worker: string, outcome: FinishJobInput['outcome']): FinishJobInput => ({
    jobId,
    worker,
    now,
    durationMs: 12.4,
    outcome,
  });

  beforeAll(async () => {
    host = await startTestHost({ projects: ['events'], runtime: 'in-process', now: () => now });
    finishes = watchStatements(host, /^\s*UPDATE jobs SET status = f\.status/);
  });
  afterAll(async () => {
    await host?.close();
  });

  it('records outcomes submitted together in one statement, each only while its worker holds the job', async () => {
    await host.db.query('DELETE FROM jobs');
    const [done, retried, conflicted, taken] = await jobs(4, 'worker-a');
    await host.db.query("UPDATE jobs SET locked_by = 'worker-b' WHERE id = $1", [taken!.id]);
    const retryAt = new Date(now.getTime() + 5000);
    finishes.clear();
    const answers = await Promise.all([
      host.services.jobFinishes.submit(input(done!.id, 'worker-a', { ok: true })),
      host.services.jobFinishes.submit(input(retried!.id, 'worker-a', { ok: false, error: 'boom', retryAt })),
      host.services.jobFinishes.submit(
        input(conflicted!.id, 'worker-a', {
          ok: false,
          error: 'conflict retry 1 of 25',
          retryAt,
          conflict: true,
        }),
      ),
      host.services.jobFinishes.submit(input(taken!.id, 'worker-a', { ok: true })),
    ]);
    expect(answers).toEqual([true, true, true, false]);
    expect(finishes.texts).toHaveLength(1);
    expect(await row(done!.id)).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      conflicts: 0,
      locked_by: 'worker-a',
    });
    expect(await row(retried!.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: 'boom',
      locked_by: null,
    });
    expect(new Date((await row(retried!.id)).run_at as string).getTime()).toBe(retryAt.getTime());
    // A conflict retry gives the attempt back and counts a conflict.
    expect(await row(conflicted!.id)).toMatchObject({ status: 'queued', attempts: 0, conflicts: 1 });
    // Held by another worker: untouched.
    expect(await row(taken!.id)).toMatchObject({ status: 'running', locked_by: 'worker-b' });
  });

  it('a job whose worker lost it (another claimed it) answers false, and failed outcomes are final without retryAt', async () => {
    await host.db.query('DELETE FROM jobs');
    const [failed] = await jobs(1, 'worker-a');
    expect(await host.services.jobFinishes.submit(input(failed!.id, 'worker-z', { ok: true }))).toBe(false);
    expect(
      await host.services.jobFinishes.submit(input(failed!.id, 'worker-a', { ok: false, error: 'gave up' })),
    ).toBe(true);
    expect(await row(failed!.id)).toMatchObject({
      status: 'failed',
      last_error: 'gave up',
      locked_by: 'worker-a',
    });
  });

  it('frees the slot of a job once its handler has finished: the next job runs while the outcome is on its way', async () => {
    await host.db.query('DELETE FROM jobs');
    // The `flaky` handler throws while its vendor is down: each outcome goes through the group commit.
    await writeStorage(
      host.db,
      { slug: SLUG, accountId: host.accountId, scope: 'account', userId: '' },
      'settings/vendor-status',
      { down: true },
    );
    for (const id of ['one', 'two']) await enqueue('flaky', JSON.stringify({ id }), 1);
    // Outcomes wait here until the test lets them through.
    const held: (() => void)[] = [];
    const services = {
      ...host.services,
      jobFinishes: {
        submit: async (item: FinishJobInput) => {
          await new Promise<void>((resolve) => held.push(resolve));
          return host.services.jobFinishes.submit(item);
        },
        close: () => host.services.jobFinishes.close(),
      },
    };
    const worker = createJobWorker(services, { concurrency: 1, pollMs: 20 });
    worker.start();
    try {
      // One slot, and the first outcome held: the second job was claimed and ran all the same.
      const deadline = Date.now() + 10_000;
      while (held.length < 2 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(held.length).toBe(2);
      expect(worker.inFlight).toBe(2);
      const statuses = async () =>
        (await host.db.query('SELECT status FROM jobs ORDER BY status')).rows.map((row) => row.status);
      expect(await statuses()).toEqual(['running', 'running']);
      for (const release of held) release();
      // Stopping waits for the outcomes being recorded, not only for the handlers.
      expect(await worker.stop(10_000)).toBe(0);
      expect(await statuses()).toEqual(['failed', 'failed']);
    } finally {
      for (const release of held) release();
      await worker.stop(10_000);
    }
  });
});
