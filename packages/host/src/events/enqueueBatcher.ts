import type { Queryable } from '../db/Db.js';
import { createGroupCommit } from '../db/groupCommit.js';
import { type EnqueueJobInput, enqueueJobs } from './jobs.js';

/**
 * Group commit of jobs (`db/groupCommit.ts`): what webhook ingress stores before it answers 202.
 * Jobs enqueued while a batch is being written wait and go together in the next one (one
 * multi-row INSERT, one commit), so under load many deliveries share a round trip and a WAL flush.
 */
export interface EnqueueBatcher {
  /**
   * Resolves with the job's id (undefined when its `uniqueKey` was taken) once the row is
   * committed; rejects when it was not stored (the caller answers 5xx: nothing was acknowledged).
   */
  enqueue(input: EnqueueJobInput): Promise<string | undefined>;
  /**
   * Refuses new jobs, writes the ones waiting and waits for every batch in flight: each settles
   * (committed or rejected), none is dropped. The database must stay open until it resolves.
   */
  close(): Promise<void>;
}

export interface EnqueueBatcherOptions {
  /** Batches written at once (each on its own connection on PostgreSQL). Default 2. */
  readonly maxInFlight?: number;
  /** Rows in one INSERT at most. Default 500. */
  readonly maxRows?: number;
  /** Body bytes (UTF-16 length) in one INSERT at most; a larger body goes alone. Default 4 MiB. */
  readonly maxBytes?: number;
  /** Told when a batch failed and its rows were retried one by one (`error` is the batch's). */
  readonly onBatchError?: (error: unknown, rows: number) => void;
  /** Told after each write that stored at least one job (committed), so a worker can claim at once. */
  readonly onStored?: () => void;
  /**
   * A batch leaves once it holds its share of the deliveries lately in the batcher, rather than at
   * the end of the event loop's turn (`GroupCommitOptions.spread`). Default false.
   */
  readonly spread?: boolean;
}

/**
 * A batcher writing to `db` through `enqueueJobs`. A batch the database refused (an SQL error)
 * is retried row by row, so a row the database rejects fails alone; a batch lost another way
 * (connection dropped, database closed) fails every job in it, since whether it committed is unknown.
 * @example const batcher = createEnqueueBatcher(db); const id = await batcher.enqueue(job);
 */
export function createEnqueueBatcher(db: Queryable, options: EnqueueBatcherOptions = {}): EnqueueBatcher {
  const { onStored, ...groupOptions } = options;
  const group = createGroupCommit<EnqueueJobInput, string | undefined>({
    writeMany: async (inputs) => {
      const ids = await enqueueJobs(db, inputs);
      if (ids.some((id) => id !== undefined)) onStored?.();
      return ids;
    },
    closedMessage: 'the host is closing; the job was not stored',
    sizeOf: (input) => input.body?.length ?? 0,
    ...groupOptions,
  });
  return { enqueue: (input) => group.submit(input), close: () => group.close() };
}
