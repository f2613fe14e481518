import type { Queryable } from '../db/Db.js';
import { type EnqueueJobInput, enqueueJob, enqueueJobs } from './jobs.js';

/**
 * Group commit of jobs: what webhook ingress stores before it answers 202. Jobs enqueued while a
 * batch is being written wait and go together in the next one (one multi-row INSERT, one commit),
 * so under load many deliveries share a round trip and a WAL flush; a lone job waits for nothing
 * but the current turn of the event loop.
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
}

interface Waiting {
  readonly input: EnqueueJobInput;
  readonly size: number;
  resolve(id: string | undefined): void;
  reject(error: unknown): void;
}

/**
 * A batcher writing to `db`. A batch the database refused (an SQL error: the statement was rolled
 * back whole) is retried row by row, so a row the database rejects fails alone; a batch lost
 * another way (connection dropped, database closed) fails every job in it, since whether it
 * committed is unknown.
 * @example const batcher = createEnqueueBatcher(db); const id = await batcher.enqueue(job);
 */
export function createEnqueueBatcher(db: Queryable, options: EnqueueBatcherOptions = {}): EnqueueBatcher {
  const maxInFlight = options.maxInFlight ?? 2;
  const maxRows = options.maxRows ?? 500;
  const maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  let waiting: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;
  let closed = false;
  const batches = new Set<Promise<void>>();

  function schedule(): void {
    if (scheduled || waiting.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    // What arrives in this turn of the event loop goes in the same batch.
    setImmediate(flush);
  }

  function flush(): void {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) {
      const batch = take();
      inFlight += 1;
      const written = write(batch).finally(() => {
        inFlight -= 1;
        batches.delete(written);
        // Whatever arrived meanwhile goes at once: it has waited a whole batch already.
        if (waiting.length > 0) flush();
      });
      batches.add(written);
    }
  }

  function take(): Waiting[] {
    let bytes = 0;
    let count = 0;
    while (count < waiting.length && count < maxRows) {
      const size = waiting[count]!.size;
      if (count > 0 && bytes + size > maxBytes) break;
      bytes += size;
      count += 1;
    }
    const batch = waiting.slice(0, count);
    waiting = waiting.slice(count);
    return batch;
  }

  async function write(batch: Waiting[]): Promise<void> {
    let ids: (string | undefined)[];
    try {
      ids = await enqueueJobs(
        db,
        batch.map((job) => job.input),
      );
    } catch (error) {
      if (batch.length === 1 || !refusedBySql(error)) {
        for (const job of batch) job.reject(error);
        return;
      }
      options.onBatchError?.(error, batch.length);
      // The statement was rolled back whole: each row again on its own, so only a bad one fails.
      await Promise.all(
        batch.map((job) =>
          enqueueJob(db, job.input).then(
            (id) => job.resolve(id),
            (rowError: unknown) => job.reject(rowError),
          ),
        ),
      );
      return;
    }
    for (const [index, job] of batch.entries()) job.resolve(ids[index]);
  }

  return {
    enqueue(input) {
      if (closed) return Promise.reject(new Error('the host is closing; the job was not stored'));
      return new Promise((resolve, reject) => {
        waiting.push({ input, size: input.body?.length ?? 0, resolve, reject });
        schedule();
      });
    },
    async close() {
      closed = true;
      flush();
      while (batches.size > 0 || waiting.length > 0) {
        await Promise.allSettled([...batches]);
        flush();
      }
    },
  };
}

/**
 * Whether the database answered the statement with an error (SQLSTATE `code`): it was rolled back
 * whole, so its rows may be written again. Anything else (a dropped connection) leaves unknown
 * whether it committed.
 */
function refusedBySql(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08');
}
