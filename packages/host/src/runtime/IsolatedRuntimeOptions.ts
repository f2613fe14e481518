// Owns the isolated runtime's options and the handle it returns.
import type { RunnerStats } from './_runnerProtocol.js';
import type { Runtime, RuntimeReport } from './Runtime.js';

export interface IsolatedRuntimeOptions {
  /**
   * Runner processes. Default: the machine's cores but one (at least one), which the host's own
   * event loop keeps: on 2 cores one runner took the same load with 30-40% less CPU than two.
   */
  readonly runners?: number;
  /** Per isolate. Default 128 MiB. */
  readonly memoryLimitMb?: number;
  /** CPU budget of one call; default its wall-clock budget (`timeoutMs`). */
  readonly cpuLimitMs?: number;
  /** Isolates one runner keeps (least recently used idle ones are disposed first). Default 32. */
  readonly maxIsolatesPerRunner?: number;
  /** An isolate idle this long is disposed, with its code. Default 10 minutes. */
  readonly isolateIdleMs?: number;
  /** Budget of `describe` (loading a bundle to read its definition). Default 10 s. */
  readonly describeTimeoutMs?: number;
  /**
   * CPU an isolate may use while none of its calls runs (timers, promise chains or loops a handler
   * left behind); past it the isolate is disposed and the next call gets a fresh one. Default 100 ms.
   */
  readonly leftoverCpuMs?: number;
  /**
   * Wall time a call may hold a runner's own thread (entering its idle isolate there, without the
   * hop to isolated-vm's thread pool) before it is stopped and run again on the pool; a version
   * whose entries there average past a tenth of it goes to the pool. Default 10 ms; tests of those
   * rules on a loaded machine set a longer one.
   */
  readonly threadSliceMs?: number;
  /**
   * A runner that does not answer for this long once a call on it ran past its budget is killed
   * (its calls in flight fail) and replaced. Default 10 s.
   */
  readonly unresponsiveRunnerMs?: number;
  /** Operational messages (runner exits, runner stderr, runners killed for not answering). */
  readonly onWarning?: (message: string) => void;
  /** Partner code refused or stopped: borrowed call ids (a security event), leftover work. */
  readonly onReport?: (report: RuntimeReport) => void;
}

export interface IsolatedRuntime extends Runtime {
  /** Process ids of the runners started so far and still running (operations and tests). */
  runnerPids(): number[];
  /** Per running runner: its pid, isolates alive and versions whose code it holds. */
  stats(): Promise<RunnerStats[]>;
}
