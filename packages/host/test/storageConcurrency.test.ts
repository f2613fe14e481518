import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJobWorker } from '../src/events/createJobWorker.js';
import { enqueueJob } from '../src/events/jobs.js';
import { writeSecret } from '../src/store/secrets.js';
import { readStorage, writeStorage } from '../src/store/storage.js';
import { partnerLog, startTestHost, type TestHost } from './_host.js';

// Storage concurrency (docs/design.md) through the real routes and job worker, on the default
// isolated runtime (suites.inProcess.test.ts reruns it in process, storageConcurrency.pg.test.ts on
// PostgreSQL). Handlers of the `concurrency` fixture hold after their read until the test sets the
// secret GO, so calls interleave exactly as each test says.

const SLUG = 'test-concurrency';
const IDS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
const log = partnerLog();

async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('storage concurrency', { timeout: 120_000 }, () => {
  let host: TestHost;
  let sourceId: string;
  let versionId: string;
  const at = () => ({ slug: SLUG, accountId: host.accountId, scope: 'account' as const, userId: '' });
  const stored = async (key: string) => (await readStorage(host.db, at(), [key])).get(key);
  const release = () =>
    writeSecret(host.db, host.services.secretBox, {
      scope: { slug: SLUG, accountId: host.accountId, sourceId },
      tier: 'account',
      name: 'GO',
      value: 'go',
    });
  const holding = () => log.reported<string>('holding', 'holding');
  const action = (name: string, json: unknown) =>
    host.call(`/api/integrations/${SLUG}/actions/${name}?accountId=${host.accountId}`, { json });
  const schedule = async (target: string) => {
    await enqueueJob(host.db, {
      kind: 'schedule',
      slug: SLUG,
      accountId: host.accountId,
      versionId,
      target,
      maxAttempts: 1,
      runAt: new Date(),
    });
  };
  const jobs = async () =>
    (
      await host.db.query(
        'SELECT id, kind, status, attempts, conflicts, last_error FROM jobs WHERE integration_slug = $1 ORDER BY created_at',
        [SLUG],
      )
    ).rows;

  beforeAll(async () => {
    host = await startTestHost({ logger: log.logger, projects: ['concurrency'] });
    const { rows } = await host.db.query(
      'SELECT source_id, live_version_id FROM integrations WHERE slug = $1',
      [SLUG],
    );
    sourceId = rows[0]!.source_id as string;
    versionId = rows[0]!.live_version_id as string;
  });
  afterAll(async () => {
    await host?.close();
  });
  beforeEach(async () => {
    log.clear();
    await host.db.query('DELETE FROM jobs');
    await host.db.query("DELETE FROM secrets WHERE name = 'GO'");
    await host.db.query('DELETE FROM storage WHERE integration_slug = $1', [SLUG]);
    await writeStorage(host.db, at(), 'sync_state/candidates', IDS);
  });

  it('six concurrent candidate-deleted deliveries all succeed and all six deletions are kept', async () => {
    for (const id of IDS) {
      const response = await host.app.request(
        `/api/integrations/${SLUG}/webhooks/candidate-deleted?accountId=${host.accountId}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id, hold: true }),
        },
      );
      expect(response.status).toBe(202);
    }
    const worker = createJobWorker(host.services, { concurrency: 6, perIntegration: 6, pollMs: 20 });
    worker.start();
    try {
      // All six have read the same list before any of them writes: five must conflict at least once.
      await until(() => new Set(holding()).size === 6, 'six handlers holding after their read');
      await release();
      await until(
        async () => (await jobs()).every((job) => job.status === 'succeeded'),
        'six succeeded deliveries',
      );
    } finally {
      await worker.stop(10_000);
    }
    expect(await stored('sync_state/candidates')).toEqual([]);
    const rows = await jobs();
    expect(rows).toHaveLength(6);
    // A conflict retry costs no attempt; the log counts them.
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
    const conflicts = rows.reduce((sum, row) => sum + (row.conflicts as number), 0);
    expect(conflicts).toBeGreaterThanOrEqual(5);
    expect(rows.filter((row) => row.conflicts === 0).length).toBeGreaterThanOrEqual(1);
    const response = await host.call(`/api/integrations/${SLUG}/deliveries?accountId=${host.accountId}`);
    const { data } = (await response.json()) as {
      data: { entries: { status: string; conflictRetries: number }[] };
    };
    expect(data.entries.map((entry) => entry.status)).toEqual(Array(6).fill('succeeded'));
    expect(data.entries.reduce((sum, entry) => sum + entry.conflictRetries, 0)).toBe(conflicts);
    // Each handler ran once more per conflict, and every run removed its id from what it read.
    expect(log.reported<string>('removed', 'removed').length).toBe(6 + conflicts);
  });

  it('says "conflict retry" in the run log while a delivery waits to run again', async () => {
    // Delivery c1 reads and holds; an action removes c2 meanwhile; c1's save then conflicts.
    const response = await host.app.request(
      `/api/integrations/${SLUG}/webhooks/candidate-deleted?accountId=${host.accountId}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'c1', hold: true }),
      },
    );
    expect(response.status).toBe(202);
    const worker = createJobWorker(host.services, { pollMs: 20 });
    const run = worker.fill();
    await run;
    await until(() => holding().includes('c1'), 'the delivery holding');
    expect((await action('remove-candidate', { id: 'c2' })).status).toBe(200);
    await release();
    await until(async () => (await jobs())[0]?.status === 'queued', 'the delivery queued again');
    const [queued] = await jobs();
    expect(queued).toMatchObject({ attempts: 0, conflicts: 1 });
    expect(queued!.last_error).toMatch(
      /^conflict retry 1 of 25: ctx\.storage\.account "sync_state\/candidates" was changed by another call/,
    );
    await until(async () => {
      await worker.fill();
      return (await jobs())[0]?.status === 'succeeded';
    }, 'the retried delivery');
    await worker.stop(10_000);
    expect(await stored('sync_state/candidates')).toEqual(['c3', 'c4', 'c5', 'c6']);
  });

  it('answers 409 conflict to an action whose read changed before it saved; its retry succeeds', async () => {
    const slow = action('remove-candidate', { id: 'c1', hold: true });
    await until(() => holding().includes('c1'), 'the first call holding after its read');
    const fast = await action('remove-candidate', { id: 'c2' });
    expect(fast.status).toBe(200);
    await release();
    const conflicted = await slow;
    expect(conflicted.status).toBe(409);
    expect(await conflicted.json()).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'Another call changed the same stored data; retry the call.' },
    });
    // Nothing of the conflicted call was saved: c2's removal stands, c1 is still there.
    expect(await stored('sync_state/candidates')).toEqual(['c1', 'c3', 'c4', 'c5', 'c6']);
    const retried = await action('remove-candidate', { id: 'c1' });
    expect(retried.status).toBe(200);
    expect(await stored('sync_state/candidates')).toEqual(['c3', 'c4', 'c5', 'c6']);
  });

  it('lets only one of two calls that read a key as absent save it', async () => {
    await host.db.query('DELETE FROM storage WHERE integration_slug = $1', [SLUG]);
    const first = action('remove-candidate', { id: 'x1', hold: true });
    const second = action('remove-candidate', { id: 'x2', hold: true });
    await until(() => holding().includes('x1') && holding().includes('x2'), 'both calls holding');
    await release();
    const statuses = [(await first).status, (await second).status].sort();
    expect(statuses).toEqual([200, 409]);
    expect(await stored('sync_state/candidates')).toEqual([]);
  });

  it('keeps what a failing sync saved at its checkpoints, and only that', async () => {
    const response = await action('sync-pages', { pages: 5, failOn: 4 });
    expect(response.status).toBe(500);
    expect(await stored('sync_state/progress')).toEqual({ page: 3 });
    expect(await stored('sync_state/pages')).toEqual([1, 2, 3]);
    // The next run resumes after the last checkpoint.
    expect((await action('sync-pages', { pages: 5 })).status).toBe(200);
    expect(await stored('sync_state/pages')).toEqual([1, 2, 3, 4, 5]);
  });

  it('a checkpointed schedule run that fails keeps its checkpoints, and is not marked succeeded by them', async () => {
    await writeStorage(host.db, at(), 'settings/sync', { pages: 3, failOn: 3 });
    await schedule('sync');
    await host.events.worker.drain();
    const [run] = await jobs();
    expect(run).toMatchObject({ kind: 'schedule', status: 'failed', attempts: 1, conflicts: 0 });
    expect(run!.last_error).toContain('page 3 failed');
    expect(await stored('sync_state/pages')).toEqual([1, 2]);
    expect(await stored('sync_state/progress')).toEqual({ page: 2 });
  });

  it('refuses a checkpoint of a run whose lease passed to another worker, saving nothing', async () => {
    await writeStorage(host.db, at(), 'sync_state/progress', { page: 1 });
    await schedule('held-sync');
    const worker = createJobWorker(host.services, { pollMs: 20 });
    await worker.fill();
    await until(() => holding().includes('held-sync'), 'the run holding');
    // Another worker took the job over (this one's lease expired while the handler ran).
    await host.db.query("UPDATE jobs SET locked_by = 'another-worker' WHERE integration_slug = $1", [SLUG]);
    await release();
    await until(() => log.reported('checkpoint refused', 'refused').length === 1, 'the refused checkpoint');
    await worker.stop(10_000);
    expect(log.reported('checkpoint refused', 'refused')).toEqual([
      'LeaseLost: this run no longer holds its job (its lease passed to another worker); nothing was saved',
    ]);
    expect(await stored('sync_state/progress')).toEqual({ page: 1 });
    // The run is the other worker's to record: this one wrote nothing to the job either.
    expect((await jobs())[0]).toMatchObject({ status: 'running', attempts: 1 });
  });
});
