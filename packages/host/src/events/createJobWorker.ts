import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { HostServices } from '../HostServices.js';
import { claimJobs, failAbandonedJobs, integrationsAtLimit, releaseJobs, renewLease } from './jobs.js';
import { type JobOutcome, type RetryPolicy, runJob } from './runJob.js';

export interface JobWorkerOptions {
  /** Names this instance in `locked_by`; default host name + pid + random. */
  readonly instanceId?: string;
  /** Jobs running at once in this instance. Default 32 (jobs mostly wait on vendors and commits). */
  readonly concurrency?: number;
  /** Jobs of one integration running at once in this instance, so one cannot starve the others. Default 16. */
  readonly perIntegration?: number;
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
  /** Polls in the background until `stop`. */
  start(): void;
  /**
   * Stops claiming, waits up to `timeoutMs` for jobs in flight, then hands the rest back to the
   * queue (lease ended now) for other instances. Answers how many were handed back.
   */
  stop(timeoutMs: number): Promise<number>;
  /** Jobs of this instance whose outcome is not recorded yet (running, or being recorded). */
  readonly inFlight: number;
}

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
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 250;
  const retry: RetryPolicy = { baseMs: 1000, maxMs: 5 * 60_000, ...options.retry };
  // Jobs of this instance until their outcome is recorded (what `stop` and `drain` wait for).
  const running = new Map<string, Promise<JobOutcome>>();
  // Slots taken: jobs whose handler has not finished. A job recording its outcome holds none, so
  // the next job is claimed while the outcome's commit is on its way.
  let busy = 0;
  const bySlug = new Map<string, number>();
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

  function launch(job: { id: string; slug: string } & Parameters<typeof runJob>[1]): void {
    busy += 1;
    bySlug.set(job.slug, (bySlug.get(job.slug) ?? 0) + 1);
    if (job.kind === 'gate') gatesRunning += 1;
    let slotHeld = true;
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      busy -= 1;
      if (job.kind === 'gate') gatesRunning -= 1;
      const left = (bySlug.get(job.slug) ?? 1) - 1;
      if (left === 0) bySlug.delete(job.slug);
      else bySlug.set(job.slug, left);
      if (stopped) return;
      // Slots freed one by one would each cost a claim of one job: with other jobs still running,
      // the claim waits a moment and takes the slots freed meanwhile.
      schedule(busy === 0 ? 0 : REFILL_GATHER_MS);
    };
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
        clearInterval(heartbeat);
        heartbeats.delete(job.id);
        running.delete(job.id);
        freeSlot();
      });
    running.set(job.id, run);
  }

  async function fillSlots(): Promise<number> {
    let started = 0;
    // Every free slot in one statement: one claim per job made claiming the bottleneck at scale.
    while (busy < concurrency) {
      // A claim that leaves integrations at their limit out reads past every ready job of theirs
      // (10,000 due schedules of one integration: each such claim read them all, after each job).
      // When one found nothing, the next waits for the poll; an integration below its limit again
      // is claimed at the next refill (`freeSlot`), not after the poll.
      const atLimit = integrationsAtLimit(bySlug, perIntegration).length > 0;
      if (atLimit && Date.now() - othersEmptyAt < pollMs) break;
      const jobs = await claimJobs(services.db, {
        worker: instanceId,
        now: services.now(),
        leaseMs,
        limit: concurrency - busy,
        perIntegration,
        running: bySlug,
        gateRoom: gateConcurrency - gatesRunning,
      });
      if (jobs.length === 0) {
        if (atLimit) othersEmptyAt = Date.now();
        break;
      }
      for (const job of jobs) launch(job);
      started += jobs.length;
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
          await failAbandonedJobs(services.db, services.now());
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
      return running.size;
    },
    fill,
    async drain() {
      let total = 0;
      for (;;) {
        total += await fill();
        if (running.size === 0) {
          await failAbandonedJobs(services.db, services.now());
          const more = await fill();
          total += more;
          if (more === 0) return total;
          continue;
        }
        await Promise.race(running.values());
      }
    },
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop(timeoutMs) {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await filling?.catch(() => {});
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(running.values()),
        new Promise((resolve) => {
          bound = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(bound);
      if (running.size === 0) return 0;
      // Past the bound: stop vouching for these jobs so another instance takes them now.
      for (const heartbeat of heartbeats.values()) clearInterval(heartbeat);
      heartbeats.clear();
      return releaseJobs(services.db, instanceId, services.now());
    },
  };
}
