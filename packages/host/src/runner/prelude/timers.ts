// Timers over the bridge: the runner waits, the isolate runs the callback; cleared ids are skipped
// when they fire. A timer belongs to the call whose code set it (index.ts's `sleep`).

/** The timer globals, over `sleep` (a request the runner answers after `ms`). */
export function createTimers(sleep: (ms: number) => Promise<unknown>) {
  let nextTimer = 1;
  const timers = new Set<number>();
  function setTimeoutShim(callback: unknown, ms: unknown = 0, ...args: unknown[]): number {
    const id = nextTimer++;
    timers.add(id);
    sleep(Math.max(0, Number(ms) || 0)).then(() => {
      if (!timers.delete(id)) return;
      if (typeof callback === 'function') callback(...args);
    });
    return id;
  }
  function clearTimeoutShim(id: unknown): void {
    timers.delete(id as number);
  }
  function setIntervalShim(
    callback: (...args: unknown[]) => void,
    ms: unknown = 0,
    ...args: unknown[]
  ): number {
    const id = nextTimer++;
    timers.add(id);
    const tick = (): Promise<void> =>
      sleep(Math.max(1, Number(ms) || 0)).then(() => {
        if (!timers.has(id)) return;
        callback(...args);
        tick();
      });
    tick();
    return id;
  }
  return { setTimeout: setTimeoutShim, clearTimeout: clearTimeoutShim, setInterval: setIntervalShim };
}

/** The prelude's timer globals. */
export type Timers = ReturnType<typeof createTimers>;
