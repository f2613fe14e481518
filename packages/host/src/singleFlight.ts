/**
 * `run` at most once at a time: a call while a run is in flight gets that run's promise (the
 * cache's epoch poll and the rate limiter's sync, each also started by an interval timer).
 * @example const poll = singleFlight(pollOnce); await Promise.all([poll(), poll()]); // one query
 */
export function singleFlight(run: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | undefined;
  return () =>
    (inFlight ??= run().finally(() => {
      inFlight = undefined;
    }));
}
