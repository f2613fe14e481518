import type { Queryable } from '../db/Db.js';
import type { HostServices } from '../HostServices.js';
import { type FinishJobInput, finishJob, type Job, type RetryPolicy } from './jobs.js';

// What every job handler (the events' own webhook and schedule runs, and the kinds registered in
// `services.jobKinds`, such as the publish gate's) shares: the backoff, and the one way to record
// an attempt's outcome while the worker still holds the job.

/** Thrown inside a job's commit transaction when the worker no longer holds the job: nothing is written. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
  constructor() {
    super('this run no longer holds its job (its lease passed to another worker); nothing was saved');
  }
}

/** How long a failed attempt waits before the next: `baseMs * 2^(attempt-1)`, at most `maxMs`. */
export const retryDelay = (retry: RetryPolicy, attempts: number): number =>
  Math.min(retry.baseMs * 2 ** (attempts - 1), retry.maxMs);

/**
 * Records an attempt's outcome for `job`, timed from now, only while `worker` holds it (see
 * `finishJob`): `in(tx, ...)` inside a transaction whose other writes stand or fall with it,
 * `alone(...)` through the instance's group commit of outcomes (`services.jobFinishes`).
 */
export function jobFinisher(services: HostServices, job: Job, worker: string) {
  const started = performance.now();
  const input = (outcome: FinishJobInput['outcome']): FinishJobInput => ({
    jobId: job.id,
    worker,
    now: services.now(),
    durationMs: performance.now() - started,
    outcome,
  });
  return {
    in: (tx: Queryable, outcome: FinishJobInput['outcome']): Promise<boolean> =>
      finishJob(tx, input(outcome)),
    alone: (outcome: FinishJobInput['outcome']): Promise<boolean> =>
      services.jobFinishes.submit(input(outcome)),
  };
}
