import { runRefreshedOnTokens } from '../capabilities/callCapabilities.js';
import type { HostServices, JobKindHandler } from '../HostServices.js';
import { refreshConnection } from '../oauth/refreshConnection.js';
import { jobFinisher } from './jobFinisher.js';
import { enqueueJobs, type Job, type JobOutcome } from './jobs.js';

/** How far ahead of a connection's `next_refresh_at` the sweep queues its job (the scheduler ticks each minute). */
const LOOKAHEAD_MS = 60_000;
/** Connections queued per sweep at most; the rest wait for the next tick. */
const SWEEP_LIMIT = 1000;

/**
 * Queues an `oauth_refresh` job for each connection whose next refresh falls before the next
 * tick (`next_refresh_at`: 15 minutes before its expiry by default, or the end of its backoff),
 * to run at that moment. The job's unique key holds that time, so every instance sweeping queues
 * it once, and a refresh that moved `next_refresh_at` (another instance, a 401) makes the old
 * job a skip. `refreshing` rows are swept too: a host that died mid-refresh left them so.
 * Answers how many jobs it queued.
 * @example await enqueueDueRefreshes(services); // in the scheduler's tick
 */
export async function enqueueDueRefreshes(services: HostServices): Promise<number> {
  const now = services.now();
  const { rows } = await services.db.query(
    `SELECT integration_slug, account_id, next_refresh_at FROM oauth_connections
     WHERE next_refresh_at IS NOT NULL AND next_refresh_at <= $1 AND state IN ('healthy', 'backoff', 'refreshing')
     ORDER BY next_refresh_at LIMIT ${SWEEP_LIMIT}`,
    [new Date(now.getTime() + LOOKAHEAD_MS)],
  );
  if (rows.length === 0) return 0;
  const ids = await enqueueJobs(
    services.db,
    rows.map((row) => {
      const at = new Date(row.next_refresh_at as string | Date);
      return {
        kind: 'oauth_refresh' as const,
        slug: row.integration_slug as string,
        accountId: row.account_id as string,
        versionId: null,
        target: row.account_id as string,
        uniqueKey: `oauth_refresh:${row.integration_slug as string}:${row.account_id as string}:${at.toISOString()}`,
        // The connection keeps its own backoff: a job is one attempt.
        maxAttempts: 1,
        runAt: at < now ? now : at,
      };
    }),
  );
  const queued = ids.filter((id) => id !== undefined).length;
  if (queued > 0) services.jobsQueued.notify();
  return queued;
}

/**
 * Runs one `oauth_refresh` job: {@link refreshConnection} for its integration and account. A
 * skip (refreshed elsewhere, not due) and a success succeed; a failed refresh fails the job with
 * its reason (the job log shows it) and is not retried as a job: the connection's backoff queues
 * the next attempt through the sweep.
 */
export async function runRefreshJob(services: HostServices, job: Job, worker: string): Promise<JobOutcome> {
  const finish = jobFinisher(services, job, worker);
  const accountId = job.accountId ?? job.target;
  let error: string | undefined;
  try {
    const outcome = await refreshConnection(services, {
      slug: job.slug,
      accountId,
      cause: { kind: 'scheduled' },
      onTokens: runRefreshedOnTokens(services),
    });
    if (outcome.status === 'failed') error = `refresh failed (${outcome.state}): ${outcome.reason}`;
  } catch (thrown) {
    services.logger.error({ err: thrown, integration: job.slug, accountId }, 'OAuth refresh job failed');
    error = `refresh failed: ${(thrown as Error).message ?? String(thrown)}`.slice(0, 500);
  }
  const recorded = await finish.alone(error === undefined ? { ok: true } : { ok: false, error });
  return recorded ? (error === undefined ? 'succeeded' : 'failed') : 'lost';
}

/** The `oauth_refresh` job kind, as createHost registers it in `services.jobKinds`. */
export const oauthRefreshJobKind: JobKindHandler = {
  run: (services, job, worker) => runRefreshJob(services, job, worker),
};
