import type { Queryable } from '../db/Db.js';
import type { JobKind, JobStatus } from './jobs.js';

// The delivery/run log: the job queue's rows as operators and partners read them (webhook
// deliveries and schedule runs; gate jobs are the submissions' own).

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

/** The delivery/run log, newest first. Errors are stored redacted. */
export async function listJobs(
  db: Queryable,
  filter: { slug?: string | undefined; accountId?: string | undefined; limit: number },
): Promise<JobLogEntry[]> {
  const { rows } = await db.query(
    `SELECT id, kind, integration_slug, account_id, payload, status, attempts, conflicts, created_at, run_at, finished_at, duration_ms, last_error, locked_by
     FROM jobs WHERE kind IN ('webhook', 'schedule') AND ($1::text IS NULL OR integration_slug = $1) AND ($2::text IS NULL OR account_id = $2)
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
