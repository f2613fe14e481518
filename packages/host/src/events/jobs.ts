import type { WebhookRequestInit } from '@platform/sdk/runtime';
import { type PreparedSql, prepared, type Queryable } from '../db/Db.js';
import { newId } from '../store/ids.js';
import { sourceServesAccountSql } from '../store/integrations.js';

/** Webhook deliveries, schedule runs, and the publish gate's checks of a submission. */
export type JobKind = 'webhook' | 'schedule' | 'gate';
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** How a retry waits: `baseMs * 2^(attempt-1)`, at most `maxMs`. */
export interface RetryPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** `conflict`: queued again after a storage conflict (see `CONFLICT_RETRIES` in `runJob.ts`). */
export type JobOutcome = 'succeeded' | 'retry' | 'conflict' | 'failed' | 'lost';

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
  /** Whether its account had the integration activated when it was claimed (`claimJobs`); absent: not asked. */
  readonly active?: boolean;
}

/** What {@link enqueueJob} and {@link enqueueJobs} store for one job. */
export interface EnqueueJobInput {
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
}

/** Stores a job; with `uniqueKey`, a second insert of the same key is a no-op (answers undefined). */
export async function enqueueJob(db: Queryable, input: EnqueueJobInput): Promise<string | undefined> {
  return (await enqueueJobs(db, [input]))[0];
}

/**
 * Stores several jobs in one statement (one multi-row INSERT, so one commit): all of them or, when
 * the statement fails, none. Answers each job's id in input order, undefined where its `uniqueKey`
 * was already taken. The rows travel as one JSON parameter whatever their number (one native
 * `JSON.stringify`, no per-value array literal escaping).
 */
export async function enqueueJobs(
  db: Queryable,
  inputs: readonly EnqueueJobInput[],
): Promise<(string | undefined)[]> {
  if (inputs.length === 0) return [];
  const ids = inputs.map(() => newId());
  const rows = inputs.map((input, index) => ({
    id: ids[index],
    kind: input.kind,
    slug: input.slug,
    account_id: input.accountId,
    version_id: input.versionId,
    payload: { target: input.target },
    body: input.body ?? null,
    unique_key: input.uniqueKey ?? null,
    max_attempts: input.maxAttempts,
    run_at: input.runAt.toISOString(),
    request_method: input.request?.method ?? null,
    request_headers: input.request?.headers ?? null,
    request_content_type: input.request?.contentType ?? null,
  }));
  const { rows: inserted } = await db.query(ENQUEUE_JOBS, [JSON.stringify(rows)]);
  const stored = new Set(inserted.map((row) => row.id as string));
  return ids.map((id) => (stored.has(id) ? id : undefined));
}

const ENQUEUE_JOBS =
  prepared(`INSERT INTO jobs (id, kind, integration_slug, account_id, version_id, payload, body, unique_key, max_attempts, run_at, created_at,
   request_method, request_headers, request_content_type)
 SELECT id, kind, slug, account_id, version_id, payload, body, unique_key, max_attempts, run_at, run_at,
   request_method, request_headers, request_content_type
 FROM json_to_recordset($1::json) AS r(id text, kind text, slug text, account_id text, version_id text,
   payload jsonb, body text, unique_key text, max_attempts integer, run_at timestamptz,
   request_method text, request_headers jsonb, request_content_type text)
 ON CONFLICT (unique_key) DO NOTHING
 RETURNING id`);

/**
 * The integrations with `perIntegration` jobs or more in `running` (jobs in flight per
 * integration): a claim leaves them out, and the worker paces claims while there are any.
 * @example integrationsAtLimit(new Map([['a', 16], ['b', 3]]), 16) // ['a']
 */
export function integrationsAtLimit(running: ReadonlyMap<string, number>, perIntegration: number): string[] {
  return [...running].filter(([, count]) => count >= perIntegration).map(([slug]) => slug);
}

/**
 * Claims up to `limit` ready jobs in one statement (queued and due, or running with an expired
 * lease and attempts left: its worker died; without attempts left `failAbandonedJobs` fails it)
 * for `worker`, skipping rows other workers hold (`FOR UPDATE SKIP LOCKED` behaves alike on PGlite,
 * one connection, and PostgreSQL): oldest first, at most `perIntegration` running per integration counting `running` (this
 * worker's jobs in flight per integration), at most `gateRoom` gate jobs. It locks the `limit`
 * oldest ready rows it can (a locked row is a write: at scale, rows locked and left cost the
 * database more than the claims they would spare) and takes the first row always, so a call may
 * take fewer than it could when an integration or the gates run out of room: call again while it
 * takes any (integrations at their limit are then left out through `running`).
 */
export async function claimJobs(
  db: Queryable,
  input: {
    worker: string;
    now: Date;
    leaseMs: number;
    limit: number;
    perIntegration: number;
    running: ReadonlyMap<string, number>;
    gateRoom: number;
  },
): Promise<Job[]> {
  if (input.limit <= 0) return [];
  const full = integrationsAtLimit(input.running, input.perIntegration);
  // Without an integration at its limit and with room for gate jobs, the scans filter nothing:
  // the statement without those filters (see `claimStatement`).
  const filtered = full.length > 0 || input.gateRoom <= 0;
  const params: unknown[] = [
    input.worker,
    input.now,
    new Date(input.now.getTime() + input.leaseMs),
    input.perIntegration,
    [...input.running.keys()],
    [...input.running.values()],
    input.gateRoom,
  ];
  if (filtered) params.push(full);
  params.push(input.limit);
  const { rows } = await db.query(claimStatement(input.limit, filtered), params);
  // RETURNING keeps no order: oldest first, as they were chosen.
  rows.sort(
    (x, y) =>
      new Date(x.run_at as string).getTime() - new Date(y.run_at as string).getTime() ||
      new Date(x.created_at as string).getTime() - new Date(y.created_at as string).getTime(),
  );
  return rows.map(jobOf);
}

/** The scans' limits written into the claim's text: multiples of this step up to the largest. */
const SCAN_LIMIT_STEP = 8;
const SCAN_LIMITS_IN_TEXT = 64;
const claimStatements = new Map<string, PreparedSql>();

/**
 * The claim of {@link claimJobs} for `limit` rows. Parameters: $1 worker, $2 now, $3 lease end,
 * $4 per-integration limit, $5 and $6 the jobs running per integration (slugs, counts), $7 room
 * for gate jobs, then when `filtered` $8 the integrations at their limit, which the scans leave
 * out (and gate jobs too when $7 is not positive), and last the limit ($8 or $9).
 *
 * Unfiltered, each scan's limit is written in the text, rounded up to a multiple of
 * {@link SCAN_LIMIT_STEP} (a scan locks at most 7 rows more than the claim's limit; a text per
 * step, so at most 8 texts and their plans per connection, about 260 KiB each): one plan then
 * fits every claim, and PostgreSQL keeps it after five claims on a connection. With the limits
 * and the filters as parameters it planned every claim (a third of the claim's time in the
 * database, 0.5 of 1.6 ms): the plan it could have kept, costed for a tenth of every ready job,
 * looked dearer than planning anew. Filtered claims (rarer) keep one text, planned each time.
 */
function claimStatement(limit: number, filtered: boolean): PreparedSql {
  const stepped = Math.ceil(limit / SCAN_LIMIT_STEP) * SCAN_LIMIT_STEP;
  const inText = !filtered && Number.isSafeInteger(stepped) && stepped <= SCAN_LIMITS_IN_TEXT;
  const key = inText ? String(stepped) : String(filtered);
  let statement = claimStatements.get(key);
  if (statement !== undefined) return statement;
  const last = filtered ? '$9::int' : '$8::int';
  const scanLimit = inText ? String(stepped) : last;
  const leftOut = filtered
    ? "AND NOT (integration_slug = ANY($8::text[])) AND (kind <> 'gate' OR $7::int > 0)"
    : '';
  // Queued and expired rows apart: each branch reads its own index (jobs_queued in order, jobs_lease)
  // and stops at its limit, where one OR'ed condition sorted every ready row at each claim.
  statement = prepared(`WITH queued AS (
       SELECT id, kind, integration_slug, run_at, created_at FROM jobs
       WHERE status = 'queued' AND run_at <= $2 ${leftOut}
       ORDER BY run_at, created_at
       LIMIT ${scanLimit}
       FOR UPDATE SKIP LOCKED
     ), expired AS (
       SELECT id, kind, integration_slug, run_at, created_at FROM jobs
       WHERE status = 'running' AND locked_until <= $2 AND attempts < max_attempts ${leftOut}
       ORDER BY run_at, created_at
       LIMIT ${scanLimit}
       FOR UPDATE SKIP LOCKED
     ), candidate AS (
       SELECT * FROM queued UNION ALL SELECT * FROM expired
     ), ranked AS (
       SELECT c.id, c.kind, c.run_at, c.created_at,
         row_number() OVER (PARTITION BY c.integration_slug ORDER BY c.run_at, c.created_at) AS nth,
         row_number() OVER (PARTITION BY c.kind = 'gate' ORDER BY c.run_at, c.created_at) AS nth_of_kind,
         $4::int - COALESCE(r.running, 0) AS room
       FROM candidate c LEFT JOIN unnest($5::text[], $6::int[]) AS r (slug, running) ON r.slug = c.integration_slug
     ), chosen AS (
       SELECT id FROM ranked
       WHERE nth <= room AND (kind <> 'gate' OR nth_of_kind <= $7::int)
       ORDER BY run_at, created_at
       LIMIT ${last}
     )
     UPDATE jobs SET status = 'running', locked_by = $1, locked_until = $3, attempts = attempts + 1, started_at = $2
     FROM chosen WHERE jobs.id = chosen.id
     RETURNING jobs.id, kind, integration_slug, account_id, version_id, payload, body, attempts, max_attempts, conflicts,
       request_method, request_headers, request_content_type, run_at, created_at,
       -- A lookup per claimed row: as an EXISTS, the plan hashed every activation of every
       -- integration at each claim (1,000 rows for 16 jobs in the 10,000-run bench).
       -- Active means activated and served: a source that stops serving the account stops its jobs.
       COALESCE((SELECT true FROM activations a JOIN integrations i ON i.slug = a.integration_slug
                 WHERE a.integration_slug = jobs.integration_slug AND a.account_id = jobs.account_id
                   AND ${sourceServesAccountSql('i.source_id', 'a.account_id')}
                 LIMIT 1), false) AS active`);
  claimStatements.set(key, statement);
  return statement;
}

/** A claimed row of `jobs` as a {@link Job}. */
function jobOf(row: Record<string, unknown>): Job {
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
    ...(typeof row.active === 'boolean' ? { active: row.active } : {}),
  };
}

/**
 * Whether `worker` still holds the job, locking its row until the transaction ends (so the lease
 * cannot pass to another worker meanwhile): what a checkpoint of a job's handler checks.
 */
export async function holdsJob(tx: Queryable, input: { jobId: string; worker: string }): Promise<boolean> {
  const { rowCount } = await tx.query(
    prepared(`SELECT 1 FROM jobs WHERE id = $1 AND locked_by = $2 AND status = 'running' FOR UPDATE`),
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
    prepared(`UPDATE jobs SET locked_until = $3 WHERE id = $1 AND locked_by = $2 AND status = 'running'`),
    [input.jobId, input.worker, input.until],
  );
  return rowCount > 0;
}

/** What {@link finishJob} and {@link finishJobs} record for one attempt. */
export interface FinishJobInput {
  readonly jobId: string;
  readonly worker: string;
  readonly now: Date;
  readonly durationMs: number;
  readonly outcome:
    | { readonly ok: true }
    | {
        readonly ok: false;
        readonly error: string;
        readonly retryAt?: Date | undefined;
        readonly conflict?: boolean | undefined;
      };
}

/**
 * Records the outcome of an attempt, only if this worker still holds the job (a job whose lease
 * expired belongs to whoever claimed it next). `retryAt`: queue again; otherwise final. A
 * `conflict` retry gives the attempt back and counts a conflict instead. Answers whether it was recorded.
 */
export async function finishJob(db: Queryable, input: FinishJobInput): Promise<boolean> {
  return (await finishJobs(db, [input]))[0]!;
}

/**
 * {@link finishJob} for several attempts in one statement (one commit; `services.jobFinishes`
 * group-commits a worker's finishes this way): answers, in input order, whether each was recorded.
 * The rows travel as 8 array parameters whatever their number.
 */
export async function finishJobs(db: Queryable, inputs: readonly FinishJobInput[]): Promise<boolean[]> {
  if (inputs.length === 0) return [];
  const column = <T>(pick: (input: FinishJobInput) => T) => inputs.map(pick);
  const statusOf = ({ outcome }: FinishJobInput) =>
    outcome.ok ? 'succeeded' : outcome.retryAt === undefined ? 'failed' : 'queued';
  const { rows } = await db.query(
    prepared(`UPDATE jobs SET status = f.status, last_error = f.error, duration_ms = f.duration_ms,
       finished_at = CASE WHEN f.status = 'queued' THEN NULL ELSE f.finished_at END,
       run_at = COALESCE(f.retry_at, jobs.run_at), locked_until = NULL,
       -- A finished job keeps the instance that finished it, for the log.
       locked_by = CASE WHEN f.status = 'queued' THEN NULL ELSE jobs.locked_by END,
       attempts = CASE WHEN f.conflict THEN jobs.attempts - 1 ELSE jobs.attempts END,
       conflicts = CASE WHEN f.conflict THEN jobs.conflicts + 1 ELSE jobs.conflicts END
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::timestamptz[],
       $7::timestamptz[], $8::boolean[]) AS f(id, worker, status, error, duration_ms, finished_at, retry_at, conflict)
     WHERE jobs.id = f.id AND jobs.locked_by = f.worker AND jobs.status = 'running'
     RETURNING jobs.id`),
    [
      column((input) => input.jobId),
      column((input) => input.worker),
      column(statusOf),
      column(({ outcome }) => (outcome.ok ? null : outcome.error)),
      column((input) => Math.round(input.durationMs)),
      column((input) => input.now.toISOString()),
      column(({ outcome }) => (outcome.ok ? null : (outcome.retryAt?.toISOString() ?? null))),
      column(({ outcome }) => !outcome.ok && outcome.retryAt !== undefined && outcome.conflict === true),
    ],
  );
  const recorded = new Set(rows.map((row) => row.id as string));
  return inputs.map((input) => recorded.has(input.jobId));
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
 * Hands back jobs `worker` claimed and never started (claimed ahead of a free slot, then the
 * worker stopped): queued again at once, with the attempt their claim counted given back.
 */
export async function unclaimJobs(db: Queryable, worker: string, jobIds: readonly string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  const { rowCount } = await db.query(
    prepared(`UPDATE jobs SET status = 'queued', locked_by = NULL, locked_until = NULL, attempts = attempts - 1
     WHERE id = ANY($2::text[]) AND locked_by = $1 AND status = 'running'`),
    [worker, jobIds],
  );
  return rowCount;
}

/**
 * Running jobs whose lease expired after their last attempt: their worker died; they are failed.
 * Answers the jobs failed, so the worker hands each to its kind's `abandoned` (a gate job's
 * submission is then rejected, so `platform status --watch` still gets a verdict).
 */
export async function failAbandonedJobs(
  db: Queryable,
  now: Date,
): Promise<{ readonly kind: JobKind; readonly target: string }[]> {
  const { rows } = await db.query(
    prepared(`UPDATE jobs SET status = 'failed', finished_at = $1, locked_by = NULL, locked_until = NULL,
       last_error = COALESCE(last_error, 'the worker running it stopped before it finished')
     WHERE status = 'running' AND locked_until <= $1 AND attempts >= max_attempts
     RETURNING kind, payload`),
    [now],
  );
  return rows.map((row) => ({
    kind: row.kind as JobKind,
    target: (row.payload as { target: string }).target,
  }));
}
