import type { WebhookRequestInit } from '@platform/sdk/runtime';
import type { Queryable } from '../db/Db.js';
import { newId } from '../store/ids.js';
import { abandonSubmission } from '../store/versions.js';

/** Webhook deliveries, schedule runs, and the publish gate's checks of a submission. */
export type JobKind = 'webhook' | 'schedule' | 'gate';
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** A claimed job, as a worker runs it. */
export interface Job {
  readonly id: string;
  readonly kind: JobKind;
  readonly slug: string;
  /** The account and version a webhook or schedule job runs for (none for a gate job). */
  readonly accountId: string | null;
  readonly versionId: string | null;
  /** The webhook or schedule id; for a gate job the submission id. */
  readonly target: string;
  readonly body: string | null;
  readonly attempts: number;
  readonly maxAttempts: number;
  /** Conflict retries so far (they cost no attempt; see `runJob`). */
  readonly conflicts: number;
  /** A webhook delivery's request (method, header view, content type); absent on older rows and other kinds. */
  readonly request?: WebhookRequestInit;
}

/** One line of the delivery/run log. */
export interface JobLogEntry {
  readonly id: string;
  readonly kind: JobKind;
  readonly integration: string;
  readonly accountId: string;
  readonly target: string;
  readonly status: JobStatus;
  readonly attempts: number;
  readonly receivedAt: string;
  readonly runAt: string;
  readonly finishedAt: string | null;
  readonly durationMs: number | null;
  readonly error: string | null;
  /** Runs retried because another call changed storage they read (not counted in `attempts`). */
  readonly conflictRetries: number;
  /** The instance running it, or the one that finished it. */
  readonly instance: string | null;
}

/** Stores a job; with `uniqueKey`, a second insert of the same key is a no-op (answers undefined). */
export async function enqueueJob(
  db: Queryable,
  input: {
    kind: JobKind;
    slug: string;
    accountId: string | null;
    versionId: string | null;
    target: string;
    body?: string;
    /** A webhook delivery's request; its headers must already be the sdk's `webhookHeaderView`. */
    request?: WebhookRequestInit;
    uniqueKey?: string;
    maxAttempts: number;
    runAt: Date;
  },
): Promise<string | undefined> {
  const id = newId();
  const { rowCount } = await db.query(
    `INSERT INTO jobs (id, kind, integration_slug, account_id, version_id, payload, body, unique_key, max_attempts, run_at, created_at,
       request_method, request_headers, request_content_type)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $10, $11, $12::jsonb, $13)
     ON CONFLICT (unique_key) DO NOTHING`,
    [
      id,
      input.kind,
      input.slug,
      input.accountId,
      input.versionId,
      JSON.stringify({ target: input.target }),
      input.body ?? null,
      input.uniqueKey ?? null,
      input.maxAttempts,
      input.runAt,
      input.request?.method ?? null,
      input.request === undefined ? null : JSON.stringify(input.request.headers),
      input.request?.contentType ?? null,
    ],
  );
  return rowCount > 0 ? id : undefined;
}

/**
 * Claims one ready job (queued and due, or running with an expired lease and attempts left: its
 * worker died; without attempts left `failAbandonedJobs` fails it) for
 * `worker`, skipping rows other workers hold and integrations at their concurrency limit.
 * `FOR UPDATE SKIP LOCKED` behaves alike on PGlite (one connection) and PostgreSQL.
 */
export async function claimJob(
  db: Queryable,
  input: {
    worker: string;
    now: Date;
    leaseMs: number;
    skipSlugs: readonly string[];
    /** Kinds this worker has no free slot for. */
    skipKinds?: readonly JobKind[];
  },
): Promise<Job | undefined> {
  const { rows } = await db.query(
    `UPDATE jobs SET status = 'running', locked_by = $1, locked_until = $3, attempts = attempts + 1, started_at = $2
     WHERE id = (
       SELECT id FROM jobs
       WHERE ((status = 'queued' AND run_at <= $2)
              OR (status = 'running' AND locked_until <= $2 AND attempts < max_attempts))
         AND NOT (integration_slug = ANY($4::text[]))
         AND NOT (kind = ANY($5::text[]))
       ORDER BY run_at, created_at
       LIMIT 1
       FOR UPDATE SKIP LOCKED)
     RETURNING id, kind, integration_slug, account_id, version_id, payload, body, attempts, max_attempts, conflicts,
       request_method, request_headers, request_content_type`,
    [
      input.worker,
      input.now,
      new Date(input.now.getTime() + input.leaseMs),
      input.skipSlugs,
      input.skipKinds ?? [],
    ],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    id: row.id as string,
    kind: row.kind as JobKind,
    slug: row.integration_slug as string,
    accountId: (row.account_id as string | null) ?? null,
    versionId: (row.version_id as string | null) ?? null,
    target: (row.payload as { target: string }).target,
    body: (row.body as string | null) ?? null,
    attempts: row.attempts as number,
    maxAttempts: row.max_attempts as number,
    conflicts: row.conflicts as number,
    ...(typeof row.request_method === 'string'
      ? {
          request: {
            method: row.request_method,
            headers: (row.request_headers as Record<string, string> | null) ?? {},
            contentType: (row.request_content_type as string | null) ?? undefined,
          },
        }
      : {}),
  };
}

/**
 * Whether `worker` still holds the job, locking its row until the transaction ends (so the lease
 * cannot pass to another worker meanwhile): what a checkpoint of a job's handler checks.
 */
export async function holdsJob(tx: Queryable, input: { jobId: string; worker: string }): Promise<boolean> {
  const { rowCount } = await tx.query(
    `SELECT 1 FROM jobs WHERE id = $1 AND locked_by = $2 AND status = 'running' FOR UPDATE`,
    [input.jobId, input.worker],
  );
  return rowCount > 0;
}

/** Extends the lease of a job this worker still holds; false when it has lost it. */
export async function renewLease(
  db: Queryable,
  input: { jobId: string; worker: string; until: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE jobs SET locked_until = $3 WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [input.jobId, input.worker, input.until],
  );
  return rowCount > 0;
}

/**
 * Records the outcome of an attempt, only if this worker still holds the job (a job whose lease
 * expired belongs to whoever claimed it next). `retryAt`: queue again; otherwise final. A
 * `conflict` retry gives the attempt back and counts a conflict instead.
 */
export async function finishJob(
  db: Queryable,
  input: {
    jobId: string;
    worker: string;
    now: Date;
    durationMs: number;
    outcome:
      | { ok: true }
      | { ok: false; error: string; retryAt?: Date | undefined; conflict?: boolean | undefined };
  },
): Promise<boolean> {
  const { outcome } = input;
  const status = outcome.ok ? 'succeeded' : outcome.retryAt === undefined ? 'failed' : 'queued';
  const conflict = !outcome.ok && outcome.retryAt !== undefined && outcome.conflict === true;
  const { rowCount } = await db.query(
    `UPDATE jobs SET status = $3, last_error = $4, duration_ms = $5,
       finished_at = CASE WHEN $3 = 'queued' THEN NULL ELSE $6::timestamptz END,
       run_at = COALESCE($7::timestamptz, run_at), locked_until = NULL,
       -- A finished job keeps the instance that finished it, for the log.
       locked_by = CASE WHEN $3 = 'queued' THEN NULL ELSE locked_by END,
       attempts = CASE WHEN $8::boolean THEN attempts - 1 ELSE attempts END,
       conflicts = CASE WHEN $8::boolean THEN conflicts + 1 ELSE conflicts END
     WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [
      input.jobId,
      input.worker,
      status,
      outcome.ok ? null : outcome.error,
      Math.round(input.durationMs),
      input.now,
      outcome.ok ? null : (outcome.retryAt ?? null),
      conflict,
    ],
  );
  return rowCount > 0;
}

/** Hands jobs this worker holds back to the queue at once (graceful shutdown past its bound). */
export async function releaseJobs(db: Queryable, worker: string, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE jobs SET locked_until = $2 WHERE locked_by = $1 AND status = 'running'`,
    [worker, now],
  );
  return rowCount;
}

/**
 * Running jobs whose lease expired after their last attempt: their worker died; they are failed.
 * A gate job's submission is then rejected, so `platform status --watch` still gets a verdict.
 */
export async function failAbandonedJobs(db: Queryable, now: Date): Promise<number> {
  const { rows, rowCount } = await db.query(
    `UPDATE jobs SET status = 'failed', finished_at = $1, locked_by = NULL, locked_until = NULL,
       last_error = COALESCE(last_error, 'the worker running it stopped before it finished')
     WHERE status = 'running' AND locked_until <= $1 AND attempts >= max_attempts
     RETURNING kind, payload`,
    [now],
  );
  for (const row of rows) {
    if (row.kind === 'gate') await abandonSubmission(db, (row.payload as { target: string }).target, now);
  }
  return rowCount;
}

/** The delivery/run log, newest first. Errors are stored redacted. */
export async function listJobs(
  db: Queryable,
  filter: { slug?: string | undefined; accountId?: string | undefined; limit: number },
): Promise<JobLogEntry[]> {
  const { rows } = await db.query(
    `SELECT id, kind, integration_slug, account_id, payload, status, attempts, conflicts, created_at, run_at, finished_at, duration_ms, last_error, locked_by
     FROM jobs WHERE kind <> 'gate' AND ($1::text IS NULL OR integration_slug = $1) AND ($2::text IS NULL OR account_id = $2)
     ORDER BY created_at DESC, id LIMIT $3`,
    [filter.slug ?? null, filter.accountId ?? null, filter.limit],
  );
  const iso = (value: unknown) => (value === null ? null : new Date(value as string).toISOString());
  return rows.map((row) => ({
    id: row.id as string,
    kind: row.kind as JobKind,
    integration: row.integration_slug as string,
    accountId: row.account_id as string,
    target: (row.payload as { target: string }).target,
    status: row.status as JobStatus,
    attempts: row.attempts as number,
    receivedAt: iso(row.created_at)!,
    runAt: iso(row.run_at)!,
    finishedAt: iso(row.finished_at),
    durationMs: (row.duration_ms as number | null) ?? null,
    error: (row.last_error as string | null) ?? null,
    conflictRetries: row.conflicts as number,
    instance: (row.locked_by as string | null) ?? null,
  }));
}
