import type { DefinitionManifest, RunResult } from '@platform/sdk/runtime';
import { redactText } from '@platform/sdk/runtime';
import type { Db, Queryable } from '../db/Db.js';
import type { HostServices } from '../HostServices.js';
import { runGateJob } from '../publish/runGateJob.js';
import { callCapabilities } from '../routes/_callCapabilities.js';
import { type InstalledVersion, readBundle } from '../store/integrations.js';
import { finishJob, type Job } from './jobs.js';

/** How a retry waits: `baseMs * 2^(attempt-1)`, at most `maxMs`. */
export interface RetryPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

export type JobOutcome = 'succeeded' | 'retry' | 'failed' | 'lost';

/** Thrown inside a job's commit transaction when the worker no longer holds the job: nothing is written. */
export class LeaseLost extends Error {}

/** How long a failed attempt waits before the next: `baseMs * 2^(attempt-1)`, at most `maxMs`. */
export const retryDelay = (retry: RetryPolicy, attempts: number): number =>
  Math.min(retry.baseMs * 2 ** (attempts - 1), retry.maxMs);

/** Records an attempt's outcome for `job`, timed from now, only while `worker` holds it (see `finishJob`). */
export function jobFinisher(services: HostServices, job: Job, worker: string) {
  const started = performance.now();
  return (tx: Queryable, outcome: Parameters<typeof finishJob>[1]['outcome']): Promise<boolean> =>
    finishJob(tx, {
      jobId: job.id,
      worker,
      now: services.now(),
      durationMs: performance.now() - started,
      outcome,
    });
}

// Stored and shown in the log: URLs (queries, userinfo) redacted, bounded in size.
const logMessage = (message: string) => redactText(message).slice(0, 2000);

async function versionById(db: Db, id: string): Promise<InstalledVersion | undefined> {
  const { rows } = await db.query(
    `SELECT v.id, v.integration_slug, v.number, v.manifest, i.source_id
     FROM versions v JOIN integrations i ON i.slug = v.integration_slug WHERE v.id = $1`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    id,
    slug: row.integration_slug as string,
    number: row.number as number,
    sourceId: row.source_id as string,
    manifest: row.manifest as DefinitionManifest,
    loadBundle: () => readBundle(db, id),
  };
}

/**
 * Runs one claimed job through the runtime as a machine actor. On success the handler's storage
 * and secret writes and the job's `succeeded` mark are committed in one transaction, and only if
 * this worker still holds the job: a success is recorded once and its effects applied once.
 * Thrown errors are retried with exponential backoff until `maxAttempts`, then the job is failed.
 */
export async function runJob(
  services: HostServices,
  job: Job,
  worker: string,
  retry: RetryPolicy,
): Promise<JobOutcome> {
  const finish = jobFinisher(services, job, worker);
  const fail = async (message: string, retryable: boolean): Promise<JobOutcome> => {
    const again = retryable && job.attempts < job.maxAttempts;
    const delay = retryDelay(retry, job.attempts);
    const recorded = await finish(services.db, {
      ok: false,
      error: logMessage(message),
      retryAt: again ? new Date(services.now().getTime() + delay) : undefined,
    });
    return recorded ? (again ? 'retry' : 'failed') : 'lost';
  };

  if (job.kind === 'gate') return runGateJob(services, job, worker, retry);
  const { accountId, versionId } = job;
  if (accountId === null || versionId === null)
    return fail(`${job.kind} job without account or version`, false);
  const version = await versionById(services.db, versionId);
  if (version === undefined) return fail(`version ${versionId} no longer exists`, false);
  const active = await services.db.query(
    'SELECT 1 FROM activations WHERE integration_slug = $1 AND account_id = $2',
    [job.slug, accountId],
  );
  if (active.rowCount === 0) {
    return fail(`integration "${job.slug}" is no longer activated for account ${accountId}`, false);
  }

  let recorded = false;
  // The capabilities commit their writes through this db: the job's success joins that transaction.
  const db: Db = {
    engine: services.db.engine,
    exec: (sql) => services.db.exec(sql),
    close: () => services.db.close(),
    query: (sql, params) => services.db.query(sql, params),
    transaction: (fn) =>
      services.db.transaction(async (tx) => {
        const result = await fn(tx);
        if (!(await finish(tx, { ok: true }))) throw new LeaseLost();
        recorded = true;
        return result;
      }),
  };
  const { capabilities, commit } = callCapabilities(
    { ...services, db },
    { version, accountId, userId: undefined, requestId: `job:${job.id}` },
  );
  const base = {
    version,
    capabilities,
    actor: { kind: 'machine' as const, accountId },
  };
  let result: RunResult<string>;
  try {
    result =
      job.kind === 'webhook'
        ? await services.runtime.deliverWebhook({
            ...base,
            timeoutMs: services.limits.webhookTimeoutMs,
            webhookId: job.target,
            rawBody: job.body ?? '',
          })
        : await services.runtime.runSchedule({
            ...base,
            timeoutMs: services.limits.scheduleTimeoutMs,
            scheduleId: job.target,
          });
  } catch (error) {
    result = { ok: false, error: { code: 'handler_error', message: (error as Error).message } };
  }
  if (!result.ok) return fail(result.error.message, result.error.code === 'handler_error');
  try {
    await commit();
    if (!recorded) recorded = await finish(services.db, { ok: true });
  } catch (error) {
    if (error instanceof LeaseLost) return 'lost';
    return fail(`saving the handler's storage writes failed: ${(error as Error).message}`, true);
  }
  return recorded ? 'succeeded' : 'lost';
}
