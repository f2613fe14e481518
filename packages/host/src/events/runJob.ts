import { StorageConflictError } from '@platform/sdk/integration';
import type { DefinitionManifest, RunResult } from '@platform/sdk/runtime';
import { redactText } from '@platform/sdk/runtime';
import { callCapabilities } from '../capabilities/callCapabilities.js';
import type { Db } from '../db/Db.js';
import type { HostServices } from '../HostServices.js';
import { type InstalledVersion, readBundle, sourceServesAccountSql } from '../store/integrations.js';
import { jobFinisher, LeaseLost, retryDelay } from './jobFinisher.js';
import { holdsJob, type Job, type JobOutcome, type RetryPolicy } from './jobs.js';

/**
 * Conflict retries one job gets (another call changed storage its run read): they cost no
 * attempt, so deliveries that collide on one key all get through; past this bound a conflict
 * counts as an ordinary failed attempt, with its backoff and `maxAttempts`.
 */
export const CONFLICT_RETRIES = 25;

/**
 * How long the `n`th conflict retry waits: a random 20-250 ms, times `n` up to 8 (at most 2 s), so
 * runs that collided spread out instead of colliding again.
 */
export const conflictDelay = (n: number, random: () => number = Math.random): number =>
  Math.round((20 + random() * 230) * Math.min(Math.max(n, 1), 8));

// Stored and shown in the log: URLs (queries, userinfo) redacted, bounded in size.
const logMessage = (message: string) => redactText(message).slice(0, 2000);

// Versions are never changed or deleted once installed: each instance keeps the ones its jobs ran.
// It keeps the read itself, so the jobs of one claim share it: a burst's first claim (16 jobs of a
// version no job of this instance ran yet) made 16 reads, each planned anew in a fresh connection.
const VERSIONS_KEPT = 256;
const versionsOf = new WeakMap<Db, Map<string, Promise<InstalledVersion | undefined>>>();

function versionById(db: Db, id: string): Promise<InstalledVersion | undefined> {
  let kept = versionsOf.get(db);
  if (kept === undefined) {
    kept = new Map();
    versionsOf.set(db, kept);
  }
  const known = kept.get(id);
  if (known !== undefined) return known;
  const reading = readVersion(db, id);
  if (kept.size >= VERSIONS_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(id, reading);
  // A version not found, or a read that failed, is not kept: the next job asks again.
  const forget = () => {
    if (kept.get(id) === reading) kept.delete(id);
  };
  reading.then((version) => {
    if (version === undefined) forget();
  }, forget);
  return reading;
}

async function readVersion(db: Db, id: string): Promise<InstalledVersion | undefined> {
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
 * this worker still holds the job: a success is recorded once and its effects applied once. A
 * checkpoint of the handler saves its writes so far without the mark, and only while this worker
 * holds the job (else `LeaseLost`, nothing saved: the run belongs to whoever claimed it next).
 * Thrown errors are retried with exponential backoff until `maxAttempts`, then the job is failed;
 * a storage conflict (at a checkpoint or the commit) is retried soon with {@link conflictDelay}.
 */
export async function runJob(
  services: HostServices,
  job: Job,
  worker: string,
  retry: RetryPolicy,
  /** Called once the handler has finished (its outcome is then only being recorded), if it ran. */
  onHandled?: () => void,
): Promise<JobOutcome> {
  const finish = jobFinisher(services, job, worker);
  const fail = async (message: string, retryable: boolean): Promise<JobOutcome> => {
    const again = retryable && job.attempts < job.maxAttempts;
    const delay = retryDelay(retry, job.attempts);
    const recorded = await finish.alone({
      ok: false,
      error: logMessage(message),
      retryAt: again ? new Date(services.now().getTime() + delay) : undefined,
    });
    return recorded ? (again ? 'retry' : 'failed') : 'lost';
  };

  if (job.kind !== 'webhook' && job.kind !== 'schedule') {
    // Other kinds run by the handler their module registered (`services.jobKinds`).
    const kind = services.jobKinds[job.kind];
    if (kind === undefined) return fail(`no handler is registered for ${job.kind} jobs on this host`, false);
    return kind.run(services, job, worker, retry);
  }
  const { accountId, versionId } = job;
  if (accountId === null || versionId === null)
    return fail(`${job.kind} job without account or version`, false);
  const version = await versionById(services.db, versionId);
  if (version === undefined) return fail(`version ${versionId} no longer exists`, false);
  // Asked when it was claimed (`claimJobs`), else now: the job of a deactivated account, or of one
  // the integration's source no longer serves, never runs its handler.
  const active =
    job.active ??
    (
      await services.db.query(
        `SELECT 1 FROM activations a JOIN integrations i ON i.slug = a.integration_slug
         WHERE a.integration_slug = $1 AND a.account_id = $2 AND ${sourceServesAccountSql('i.source_id', '$2')}`,
        [job.slug, accountId],
      )
    ).rowCount > 0;
  if (!active) {
    return fail(
      `integration "${job.slug}" is no longer activated for account ${accountId}, or its source no longer serves it`,
      false,
    );
  }

  let recorded = false;
  const { capabilities, commit, conflict } = callCapabilities(services, {
    version,
    accountId,
    userId: undefined,
    requestId: `job:${job.id}`,
    // The job's success joins the final save's transaction; a checkpoint saves only while held.
    onSave: async (tx, final) => {
      if (!final) {
        if (!(await holdsJob(tx, { jobId: job.id, worker }))) throw new LeaseLost();
        return;
      }
      if (!(await finish.in(tx, { ok: true }))) throw new LeaseLost();
      recorded = true;
    },
    // Nothing to save: the success mark goes with other finishes of this instance, in one statement.
    onFinalWithoutWrites: async () => {
      if (!(await finish.alone({ ok: true }))) throw new LeaseLost();
      recorded = true;
    },
  });
  const retryConflict = async (error: StorageConflictError): Promise<JobOutcome> => {
    if (job.conflicts >= CONFLICT_RETRIES) {
      return fail(`${error.message} (after ${job.conflicts} conflict retries)`, true);
    }
    const n = job.conflicts + 1;
    const queued = await finish.alone({
      ok: false,
      error: logMessage(`conflict retry ${n} of ${CONFLICT_RETRIES}: ${error.message}`),
      retryAt: new Date(services.now().getTime() + conflictDelay(n)),
      conflict: true,
    });
    return queued ? 'conflict' : 'lost';
  };
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
            ...(job.request === undefined ? {} : { request: job.request }),
          })
        : await services.runtime.runSchedule({
            ...base,
            timeoutMs: services.limits.scheduleTimeoutMs,
            scheduleId: job.target,
          });
  } catch (error) {
    result = { ok: false, error: { code: 'handler_error', message: (error as Error).message } };
  }
  onHandled?.();
  if (!result.ok) {
    // The host's own record, not the guest's word: a checkpoint of this run conflicted.
    const found = conflict();
    if (found !== undefined) return retryConflict(found);
    return fail(result.error.message, result.error.code === 'handler_error');
  }
  try {
    await commit();
  } catch (error) {
    if (error instanceof LeaseLost) return 'lost';
    if (error instanceof StorageConflictError) return retryConflict(error);
    return fail(`saving the handler's storage writes failed: ${(error as Error).message}`, true);
  }
  return recorded ? 'succeeded' : 'lost';
}
