/**
 * Group commit: writes that arrive while a batch is being written wait and go together in the
 * next one (one statement, one commit), so under load many callers share a round trip and a WAL
 * flush; a lone write waits for nothing but the current turn of the event loop (`spread`: not even
 * that when nothing is in flight). Webhook ingress stores its deliveries this way
 * (`events/enqueueBatcher.ts`, spread on PostgreSQL) and job workers record outcomes this
 * way (`services.jobFinishes`). Reads batch the same way: calls' first storage reads
 * (`services.storageReads`), where sharing a statement spares each call a round trip of its own.
 */
export interface GroupCommit<I, O> {
  /**
   * Resolves with the item's answer once the batch holding it is committed; rejects when it was not
   * written (the caller must not acknowledge it).
   */
  submit(item: I): Promise<O>;
  /**
   * Refuses new items, writes the ones waiting and waits for every batch in flight: each settles
   * (committed or rejected), none is dropped. The database must stay open until it resolves.
   */
  close(): Promise<void>;
}

export interface GroupCommitOptions<I, O> {
  /**
   * Writes a batch in one statement, all of it or (throwing) none; answers one result per item in
   * order. A batch of one is written by it too.
   */
  readonly writeMany: (items: readonly I[]) => Promise<readonly O[]>;
  /** What a closed batcher rejects new items with. */
  readonly closedMessage: string;
  /** Batches written at once (each on its own connection on PostgreSQL). Default 2. */
  readonly maxInFlight?: number;
  /** Items in one batch at most. Default 500. */
  readonly maxRows?: number;
  /** Sum of `sizeOf` in one batch at most; a larger item goes alone. Default 4 MiB. */
  readonly maxBytes?: number;
  /** An item's share of `maxBytes` (for example a body's length). Default 0. */
  readonly sizeOf?: (item: I) => number;
  /** Told when a batch failed and its items were retried one by one (`error` is the batch's). */
  readonly onBatchError?: (error: unknown, rows: number) => void;
  /**
   * Spread the items over the batch slots. With a slot free, a batch leaves as soon as it holds its
   * share (1 / `maxInFlight`) of the most items lately in this batcher at once (in flight and
   * waiting), once the current callback's microtasks have run, rather than at the end of the event
   * loop's turn. A lone item on an idle batcher so waits for nothing; under a steady load of N
   * callers, each submitting again when answered, the batches settle at N / `maxInFlight` each and
   * the next one is gathered while the last is written. Without it, N callers answered together
   * submit again together and their one batch is written while nothing else happens. A batch that
   * leaves at the end of a turn short of its share halves the peak, so it follows a falling load.
   * Default false: every batch waits for the end of the turn (fewest batches: PGlite's work is this
   * event loop's own).
   */
  readonly spread?: boolean;
}

interface Waiting<I, O> {
  readonly item: I;
  readonly size: number;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * A group commit over `writeMany`. A batch the database refused (an SQL error: the statement was
 * rolled back whole) is retried item by item, so an item the database rejects fails alone; a batch
 * lost another way (connection dropped, database closed) fails every item in it, since whether it
 * committed is unknown.
 * @example const finishes = createGroupCommit({ writeMany: (rows) => finishJobs(db, rows), closedMessage: 'closing' });
 */
export function createGroupCommit<I, O>(options: GroupCommitOptions<I, O>): GroupCommit<I, O> {
  const maxInFlight = options.maxInFlight ?? 2;
  const maxRows = options.maxRows ?? 500;
  const maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  const sizeOf = options.sizeOf ?? (() => 0);
  let waiting: Waiting<I, O>[] = [];
  let inFlight = 0;
  // Items in the batches in flight, and the most items in flight and waiting at once, halved by
  // each batch that leaves at the end of a turn short of its share (`spread`).
  let itemsInFlight = 0;
  let peak = 0;
  let leaving = false;
  let scheduled = false;
  let closed = false;
  const batches = new Set<Promise<void>>();

  function schedule(): void {
    if (scheduled || waiting.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    // What arrives in this turn of the event loop goes in the same batch.
    setImmediate(flushAtTurnEnd);
  }

  // What a batch must hold to leave before the turn's end (`spread`).
  const share = () => Math.ceil(peak / maxInFlight);

  function flushAtTurnEnd(): void {
    // Fewer came in a whole turn than a batch's share: the load fell (or the peak was a burst).
    if (options.spread === true && inFlight < maxInFlight && waiting.length > 0 && waiting.length < share()) {
      peak /= 2;
    }
    flush();
  }

  function flush(): void {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) {
      const batch = take();
      inFlight += 1;
      itemsInFlight += batch.length;
      const written = write(batch).finally(() => {
        inFlight -= 1;
        itemsInFlight -= batch.length;
        batches.delete(written);
        // Whatever arrived meanwhile goes at once: it has waited a whole batch already.
        if (waiting.length > 0) flush();
      });
      batches.add(written);
    }
  }

  function take(): Waiting<I, O>[] {
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

  async function write(batch: Waiting<I, O>[]): Promise<void> {
    let results: readonly O[];
    try {
      results = await options.writeMany(batch.map((waiter) => waiter.item));
      if (results.length !== batch.length) throw new Error('a group commit answered a result per item');
    } catch (error) {
      if (batch.length === 1 || !refusedBySql(error)) {
        for (const waiter of batch) waiter.reject(error);
        return;
      }
      options.onBatchError?.(error, batch.length);
      // The statement was rolled back whole: each item again on its own, so only a bad one fails.
      await Promise.all(
        batch.map((waiter) =>
          options.writeMany([waiter.item]).then(
            (one) => waiter.resolve(one[0]!),
            (itemError: unknown) => waiter.reject(itemError),
          ),
        ),
      );
      return;
    }
    for (const [index, waiter] of batch.entries()) waiter.resolve(results[index]!);
  }

  return {
    submit(item) {
      if (closed) return Promise.reject(new Error(options.closedMessage));
      return new Promise((resolve, reject) => {
        waiting.push({ item, size: sizeOf(item), resolve, reject });
        if (options.spread === true) {
          peak = Math.max(peak, itemsInFlight + waiting.length);
          if (!leaving && inFlight < maxInFlight && waiting.length >= share()) {
            leaving = true;
            queueMicrotask(() => {
              leaving = false;
              flush();
            });
            return;
          }
        }
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
export function refusedBySql(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08');
}
