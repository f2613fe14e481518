import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { HostServices } from '../HostServices.js';
import {
  claimJobs,
  failAbandonedJobs,
  integrationsAtLimit,
  type Job,
  type JobOutcome,
  type RetryPolicy,
  releaseJobs,
  renewLease,
  unclaimJobs,
} from './jobs.js';
import { runJob } from './runJob.js';

export interface JobWorkerOptions {
  /** Names this instance in `locked_by`; default host name + pid + random. */
  readonly instanceId?: string;
  /** Jobs running at once in this instance. Default 32 (jobs mostly wait on vendors and commits). */
  readonly concurrency?: number;
  /** Jobs of one integration running at once in this instance, so one cannot starve the others. Default 16. */
  readonly perIntegration?: number;
  /**
   * Jobs claimed beyond the free slots (at most `perIntegration` of one integration), waiting in
   * this instance to start the moment a slot frees: the next claim's round trip then overlaps the
   * jobs running instead of leaving the slots empty meanwhile. A waiting job holds its lease (and
   * its attempt: should the instance die, it counts as a run that stopped); `stop` hands waiting
   * jobs back at once with their attempt. Default `perIntegration` (at most `concurrency`); 0 claims
   * only into free slots.
   */
  readonly claimAhead?: number;
  /** A claimed job is someone else's to take after this long without a heartbeat. Default 30 s. */
  readonly leaseMs?: number;
  /** How often an idle worker looks for jobs (real time). Default 250 ms. */
  readonly pollMs?: number;
  readonly retry?: Partial<RetryPolicy>;
}

export interface JobWorker {
  readonly instanceId: string;
  /** Claims ready jobs into free slots and starts them; answers how many it started. */
  fill(): Promise<number>;
  /** Runs ready jobs until none is left (claims and waits); for tests and benchmarks. */
  drain(): Promise<number>;
  /** Polls in the background until `stop`, and claims at once when this instance queued jobs (`services.jobsQueued`). */
  start(): void;
  /**
   * Stops claiming, hands jobs claimed ahead and not started back to the queue (with their
   * attempt), waits up to `timeoutMs` for jobs in flight, then hands the rest back (lease ended
   * now) for other instances. Answers how many were handed back, of both kinds.
   */
  stop(timeoutMs: number): Promise<number>;
  /** Jobs of this instance whose outcome is not recorded yet (waiting to start, running, or being recorded). */
  readonly inFlight: number;
  /** Jobs of this instance running a handler now (at most `concurrency`, `perIntegration` of one integration). */
  readonly running: number;
}

type LaunchableJob = Job & Parameters<typeof runJob>[1];

/** How long a freed slot waits for others before it is claimed while other jobs still run (real time). */
const REFILL_GATHER_MS = 5;

/**
 * The job queue's consumer for one host instance: claims jobs with `FOR UPDATE SKIP LOCKED`,
 * keeps their leases alive while they run, and records outcomes (see `runJob`).
 * @example const worker = createJobWorker(host.services); worker.start(); ...; await worker.stop(10_000);
 */
export function createJobWorker(services: HostServices, options: JobWorkerOptions = {}): JobWorker {
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const concurrency = options.concurrency ?? 32;
  const perIntegration = options.perIntegration ?? 16;
  const claimAhead = Math.max(0, options.claimAhead ?? Math.min(perIntegration, concurrency));
  // What a claim may hold (running and waiting): more than the slots by `claimAhead`.
  const claimLimit = concurrency + claimAhead;
  const claimPerIntegration = perIntegration + Math.min(claimAhead, perIntegration);
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 250;
  const retry: RetryPolicy = { baseMs: 1000, maxMs: 5 * 60_000, ...options.retry };
  // Jobs of this instance until their outcome is recorded (what `stop` and `drain` wait for).
  const unrecorded = new Map<string, Promise<JobOutcome>>();
  // Slots taken: jobs whose handler has not finished. A job recording its outcome holds none, so
  // the next job is claimed while the outcome's commit is on its way.
  let busy = 0;
  const bySlug = new Map<string, number>();
  // Claimed, not started yet (oldest first).
  const waiting: LaunchableJob[] = [];
  let launched = 0;
  // Gate jobs run compilers and test runners: few at once, whatever the general concurrency.
  const gateConcurrency = services.gate.concurrency;
  let gatesRunning = 0;
  const heartbeats = new Map<string, NodeJS.Timeout>();
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = 0;
  let abandonedCheckedAt = 0;
  let refill = false;
  // When a claim leaving integrations at their limit out last found nothing (real time).
  let othersEmptyAt = Number.NEGATIVE_INFINITY;
  let filling: Promise<number> | undefined;
  let unlisten: (() => void) | undefined;
  // Set by `stop` (not merely never started, as for `drain`): waiting jobs are handed back, not run.
  let stopping = false;

  const count = (counts: Map<string, number>, slug: string, by: number) => {
    const next = (counts.get(slug) ?? 0) + by;
    if (next <= 0) counts.delete(slug);
    else counts.set(slug, next);
  };
  const fits = (job: LaunchableJob) =>
    busy < concurrency &&
    (bySlug.get(job.slug) ?? 0) < perIntegration &&
    (job.kind !== 'gate' || gatesRunning < gateConcurrency);

  /** The jobs this instance holds (running and waiting), per integration and gate jobs: what a claim counts. */
  function held(): { bySlug: Map<string, number>; gates: number } {
    const counts = new Map(bySlug);
    let gates = gatesRunning;
    for (const job of waiting) {
      count(counts, job.slug, 1);
      if (job.kind === 'gate') gates += 1;
    }
    return { bySlug: counts, gates };
  }

  /** A claimed job: its lease kept alive from now on; started now if a slot fits it, else waiting. */
  function hold(job: LaunchableJob): void {
    // The heartbeat runs on real time: a live worker keeps its job however the clock is driven.
    const heartbeat = setInterval(
      () => {
        renewLease(services.db, {
          jobId: job.id,
          worker: instanceId,
          until: new Date(services.now().getTime() + leaseMs),
        }).catch((error) => services.logger.warn({ err: error, jobId: job.id }, 'lease renewal failed'));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    heartbeats.set(job.id, heartbeat);
    if (fits(job)) launch(job);
    else waiting.push(job);
  }

  /** Starts the oldest waiting jobs that fit the slots freed (no claim, no round trip). */
  function launchWaiting(): void {
    if (stopping) return;
    for (let index = 0; index < waiting.length && busy < concurrency; ) {
      const job = waiting[index]!;
      if (fits(job)) {
        waiting.splice(index, 1);
        launch(job);
      } else index += 1;
    }
  }

  function stopHeartbeat(job: LaunchableJob): void {
    clearInterval(heartbeats.get(job.id));
    heartbeats.delete(job.id);
  }

  function launch(job: LaunchableJob): void {
    launched += 1;
    busy += 1;
    count(bySlug, job.slug, 1);
    if (job.kind === 'gate') gatesRunning += 1;
    let slotHeld = true;
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      busy -= 1;
      if (job.kind === 'gate') gatesRunning -= 1;
      count(bySlug, job.slug, -1);
      launchWaiting();
      if (stopped) return;
      // Slots freed one by one would each cost a claim of one job: with other jobs still running,
      // the claim waits a moment and takes the slots freed meanwhile.
      schedule(busy === 0 ? 0 : REFILL_GATHER_MS);
    };
    const run = runJob(services, job, instanceId, retry, freeSlot)
      .catch((error) => {
        services.logger.error({ err: error, jobId: job.id }, 'job run failed');
        return 'lost' as const;
      })
      .then((outcome) => {
        services.logger.info(
          { jobId: job.id, kind: job.kind, integration: job.slug, attempt: job.attempts, outcome },
          'job',
        );
        return outcome;
      })
      .finally(() => {
        stopHeartbeat(job);
        unrecorded.delete(job.id);
        freeSlot();
      });
    unrecorded.set(job.id, run);
  }

  async function fillSlots(): Promise<number> {
    let started = 0;
    // Every free slot (and `claimAhead` more) in one statement: one claim per job made claiming
    // the bottleneck at scale.
    while (busy + waiting.length < claimLimit) {
      // A claim that leaves integrations at their limit out reads past every ready job of theirs
      // (10,000 due schedules of one integration: each such claim read them all, after each job).
      // When one found nothing, the next waits for the poll; an integration below its limit again
      // is claimed at the next refill (`freeSlot`), not after the poll.
      const holding = held();
      const atLimit = integrationsAtLimit(holding.bySlug, claimPerIntegration).length > 0;
      if (atLimit && Date.now() - othersEmptyAt < pollMs) break;
      const jobs = await claimJobs(services.db, {
        worker: instanceId,
        now: services.now(),
        leaseMs,
        limit: claimLimit - busy - waiting.length,
        perIntegration: claimPerIntegration,
        running: holding.bySlug,
        gateRoom: gateConcurrency - holding.gates,
      });
      if (jobs.length === 0) {
        if (atLimit) othersEmptyAt = Date.now();
        break;
      }
      const before = busy;
      for (const job of jobs) hold(job);
      started += busy - before;
    }
    return started;
  }

  // One claim loop at a time per instance; callers share the one in progress, which then claims
  // once more (a slot freed while its last claim was on the way would otherwise wait for a poll).
  function fill(): Promise<number> {
    if (filling !== undefined) {
      refill = true;
      return filling;
    }
    filling = (async () => {
      let started = 0;
      do {
        refill = false;
        started += await fillSlots();
      } while (refill);
      return started;
    })().finally(() => {
      filling = undefined;
    });
    return filling;
  }

  /** Fails the jobs whose worker died past their last attempt, and lets each one's kind clean up. */
  async function failAbandoned(): Promise<void> {
    const now = services.now();
    for (const job of await failAbandonedJobs(services.db, now)) {
      if (job.kind === 'webhook' || job.kind === 'schedule') continue;
      await services.jobKinds[job.kind]?.abandoned?.(services.db, job.target, now);
    }
  }

  // The earliest wake-up wins: a poll scheduled after a job ended must not postpone its refill.
  function schedule(delay: number): void {
    const at = Date.now() + delay;
    if (timer !== undefined && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      fill()
        .then(async () => {
          // Once a poll interval at most, not after every refill.
          if (Date.now() - abandonedCheckedAt < pollMs) return;
          abandonedCheckedAt = Date.now();
          await failAbandoned();
        })
        .catch((error) => services.logger.error({ err: error }, 'claiming jobs failed'))
        .finally(() => {
          if (!stopped) schedule(pollMs);
        });
    }, delay);
  }

  return {
    instanceId,
    get inFlight() {
      return unrecorded.size + waiting.length;
    },
    get running() {
      return busy;
    },
    fill,
    async drain() {
      // Counted as they start: jobs claimed ahead start later, when a slot frees, not in `fill`.
      const first = launched;
      for (;;) {
        await fill();
        if (unrecorded.size === 0) {
          await failAbandoned();
          if ((await fill()) === 0 && unrecorded.size === 0) return launched - first;
          continue;
        }
        await Promise.race(unrecorded.values());
      }
    },
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      // Jobs this instance queued are claimed at once; the poll finds the others' (and retries).
      unlisten = services.jobsQueued.listen(() => {
        if (!stopped) schedule(0);
      });
      schedule(0);
    },
    async stop(timeoutMs) {
      stopped = true;
      stopping = true;
      unlisten?.();
      unlisten = undefined;
      clearTimeout(timer);
      timer = undefined;
      await filling?.catch(() => {});
      // Jobs claimed ahead never started: back to the queue at once, with their attempt.
      const unstarted = waiting.splice(0);
      for (const job of unstarted) stopHeartbeat(job);
      // Should this fail, their leases end in `leaseMs` and the jobs are taken as abandoned.
      const unclaimed = await unclaimJobs(
        services.db,
        instanceId,
        unstarted.map((job) => job.id),
      ).catch((error) => {
        services.logger.warn({ err: error, jobs: unstarted.length }, 'handing back jobs not started failed');
        return 0;
      });
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(unrecorded.values()),
        new Promise((resolve) => {
          bound = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(bound);
      if (unrecorded.size === 0) return unclaimed;
      // Past the bound: stop vouching for these jobs so another instance takes them now.
      for (const heartbeat of heartbeats.values()) clearInterval(heartbeat);
      heartbeats.clear();
      return unclaimed + (await releaseJobs(services.db, instanceId, services.now()));
    },
  };
}
