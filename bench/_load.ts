import autocannon from 'autocannon';
import { cpuPerOperation, cpuSnapshot } from './_cpu.js';

/** One target under load: throughput, latency, failures, and where the CPU went (`_cpu.ts`). */
export interface LoadResult {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  /** Requests that got no answer (connection errors, timeouts). */
  readonly errors: number;
  readonly cpu: string;
}

export const DURATION_S = 5;
export const CONNECTIONS = 10;

/** Load before each measured run, not counted: the host's JIT, isolates and caches reach their steady state. */
export const WARM_UP_S = 1;

/** POSTs `init` to `url` from {@link CONNECTIONS} connections for `duration` seconds (autocannon). */
export function load(
  name: string,
  url: string,
  init: { headers?: Record<string, string>; body?: string },
  duration = DURATION_S,
): Promise<LoadResult> {
  const before = cpuSnapshot();
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: 'POST', connections: CONNECTIONS, duration, ...init },
      (error: Error | null, result: autocannon.Result) => {
        if (error) return reject(error);
        resolve({
          name,
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          cpu: cpuPerOperation(before, cpuSnapshot(), result.requests.total, 'request'),
        });
      },
    );
  });
}
