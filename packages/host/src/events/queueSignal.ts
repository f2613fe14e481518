/**
 * In-process news that this instance committed jobs ready to run: the scheduler (after each page
 * it fired), webhook ingress (after each batch of deliveries) and the publish route (after an
 * upload's transaction, which queues its gate job) tell; the instance's worker listens and claims
 * at once instead of at its next poll. Other instances still find the jobs at their own poll; this
 * only spares the local worker the wait (up to its poll interval, 250 ms by default: a tenth of the
 * 2 s a burst of 10,000 due runs has to start in).
 * @example const signal = createQueueSignal(); const stop = signal.listen(() => worker.fill()); signal.notify();
 */
export interface QueueSignal {
  /** Tells every listener, synchronously; a listener that throws does not keep the others from hearing. */
  notify(): void;
  /** Answers a function that stops the listening. */
  listen(listener: () => void): () => void;
}

export function createQueueSignal(onListenerError: (error: unknown) => void = () => {}): QueueSignal {
  const listeners = new Set<() => void>();
  return {
    notify() {
      for (const listener of listeners) {
        try {
          listener();
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    listen(listener) {
      // Wrapped, so the same function listening twice is two listeners with two stops.
      const entry = () => listener();
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
  };
}
