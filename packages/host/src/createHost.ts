import { chmod, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createEgressFetch, type EgressFetchOptions } from '@platform/sdk/server';
import type { Hono } from 'hono';
import pino, { type Logger } from 'pino';
import { createHostCache, invalidatingDb } from './cache/hostCache.js';
import { createLogBudgets } from './capabilities/logBudget.js';
import { createHostApp } from './createHostApp.js';
import type { Db } from './db/Db.js';
import { createGroupCommit } from './db/groupCommit.js';
import { migrate } from './db/migrate.js';
import { openDb } from './db/openDb.js';
import { createJobWorker, type JobWorker, type JobWorkerOptions } from './events/createJobWorker.js';
import { createScheduler, type Scheduler, type SchedulerOptions } from './events/createScheduler.js';
import { createEnqueueBatcher } from './events/enqueueBatcher.js';
import { finishJobs } from './events/jobs.js';
import { oauthRefreshJobKind } from './events/oauthRefreshJob.js';
import { createQueueSignal } from './events/queueSignal.js';
import {
  DEFAULT_LIMITS,
  DEFAULT_OAUTH_REFRESH,
  type GateSettings,
  type HostLimits,
  type HostServices,
  type OAuthRefreshSettings,
} from './HostServices.js';
import { gateJobKind } from './publish/runGateJob.js';
import { createRateLimiter } from './rateLimit.js';
import { openRegistryFolder } from './registry/registryFolder.js';
import { createInProcessRuntime } from './runtime/createInProcessRuntime.js';
import { createIsolatedRuntime } from './runtime/createIsolatedRuntime.js';
import type { Runtime, RuntimeReport } from './runtime/Runtime.js';
import { createSecretBox, loadSecretKey } from './secrets/SecretBox.js';
import { parseTrustedProxies } from './security/clientAddress.js';
import { securityEvent } from './security/securityEvent.js';
import { readVersionedStorageMany } from './store/storage.js';

export interface CreateHostOptions {
  /** PGlite data and the generated secret key live here; omitted: PGlite in memory and a random key. */
  readonly dataDir?: string | undefined;
  /** PostgreSQL instead of PGlite. */
  readonly databaseUrl?: string | undefined;
  readonly logger?: Logger;
  /**
   * Where partner code runs: a runtime, or `'isolated'` / `'in-process'`. Omitted: the
   * `PLATFORM_RUNTIME` variable (of `env`, then of the process), else {@link DEFAULT_RUNTIME}.
   */
  readonly runtime?: Runtime | RuntimeKind;
  readonly limits?: Partial<HostLimits>;
  readonly publicOrigin?: string | undefined;
  /**
   * The reverse proxies in front of the host, whose `X-Forwarded-For` names the client for
   * per-address limits: addresses and CIDR ranges, comma-separated. Default:
   * `PLATFORM_TRUSTED_PROXIES` (of `env`, then of the process), else none (the peer is the client).
   */
  readonly trustedProxies?: string | undefined;
  /**
   * The folder of package tarballs served under `/registry/`. Default: `PLATFORM_REGISTRY_DIR`
   * (of `env`, then of the process), else `<dataDir>/registry`; none in memory.
   */
  readonly registryDir?: string | undefined;
  readonly egress?: EgressFetchOptions;
  readonly env?: Record<string, string | undefined>;
  readonly now?: () => Date;
  /**
   * The publish gate: `registryUrl` where it installs `@platform/*` from (default: this host's
   * `/registry/` once `listeningAt` is called, else `publicOrigin`), the npm registry for the rest,
   * its scratch folder, how many gate jobs run at once, and its time limits.
   */
  readonly gate?: Partial<Omit<GateSettings, 'registryUrl'>> & { readonly registryUrl?: string };
  /** How OAuth connections are refreshed (defaults: `DEFAULT_OAUTH_REFRESH`). */
  readonly oauthRefresh?: Partial<OAuthRefreshSettings>;
  /** The job worker and scheduler of this instance (started by `host.events.start()`). */
  readonly events?: { readonly worker?: JobWorkerOptions; readonly scheduler?: SchedulerOptions };
}

/** The background side of one instance: the job queue's worker and the cron scheduler. */
export interface HostEvents {
  readonly worker: JobWorker;
  readonly scheduler: Scheduler;
  /** Starts polling for jobs and ticking schedules (`platform-host serve` does). */
  start(): void;
  /** Stops both; jobs in flight get `drainMs` to finish, the rest go back to the queue. */
  stop(drainMs: number): Promise<number>;
}

export type RuntimeKind = 'isolated' | 'in-process';

/**
 * The runtime a host uses when neither the options nor `PLATFORM_RUNTIME` name one: partner code
 * is untrusted, so it runs in V8 isolates in runner processes. `in-process` is for tests and local
 * development and says at start that it does not isolate.
 */
export const DEFAULT_RUNTIME: RuntimeKind = 'isolated';

export interface Host {
  readonly app: Hono;
  readonly services: HostServices;
  readonly db: Db;
  readonly events: HostEvents;
  /** Tells the host the origin it listens on (the gate installs `@platform/*` from its `/registry/`). */
  listeningAt(origin: string): void;
  /** Stops the events (10 s drain), then closes the runtime and the database. */
  close(): Promise<void>;
}

/**
 * Opens the database, applies migrations, and builds the services and the app.
 * @example const host = await createHost({ dataDir: '.platform-host' }); serve(host.app);
 */
export async function createHost(options: CreateHostOptions = {}): Promise<Host> {
  const logger =
    options.logger ?? pino({ level: 'info', redact: ['req.headers.authorization', 'req.headers.cookie'] });
  // Read before anything is opened: a malformed variable fails at once.
  const limits: HostLimits = { ...DEFAULT_LIMITS, ...logLimitsFromEnv(options), ...options.limits };
  const trustedProxies = parseTrustedProxies(
    options.trustedProxies ?? envVar(options, 'PLATFORM_TRUSTED_PROXIES'),
  );
  if (options.dataDir !== undefined) {
    // The database, secret key and tokens live here: the host's user only (the gate runs partner
    // code as another user, which must not read it). An older, wider folder is narrowed.
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    await chmod(options.dataDir, 0o700);
  }
  const rawDb = await openDb({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  // Every write of this instance through `db` to a table the cache watches drops the cache at once.
  const cache = createHostCache(rawDb, logger);
  const db = invalidatingDb(rawDb, cache);
  try {
    await migrate(db);
    const secretBox = createSecretBox(
      await loadSecretKey({ env: options.env ?? {}, dataDir: options.dataDir }),
    );
    const now = options.now ?? (() => new Date());
    let listening: string | undefined;
    const fetch = createEgressFetch({ timeoutMs: limits.fetchTimeoutMs, ...options.egress });
    const runtime = selectRuntime(options, logger);
    const jobsQueued = createQueueSignal((error) =>
      logger.error({ err: error }, 'a listener of queued jobs failed'),
    );
    const services: HostServices = {
      db,
      cache,
      actionRateLimit: createRateLimiter(db, { now, logger }),
      runtime,
      secretBox,
      fetch,
      logger,
      limits,
      oauthRefresh: { ...DEFAULT_OAUTH_REFRESH, ...options.oauthRefresh },
      // The configured origin, else (once serving) the address this host listens on: absolute URLs
      // never come from a request's Host header when either is known.
      get publicOrigin() {
        return options.publicOrigin?.replace(/\/+$/, '') ?? listening;
      },
      trustedProxies,
      now,
      gate: {
        concurrency: options.gate?.concurrency ?? 1,
        npmRegistry: options.gate?.npmRegistry,
        scratchDir: options.gate?.scratchDir,
        ...(options.gate?.limits === undefined ? {} : { limits: options.gate.limits }),
        registryUrl: () => {
          if (options.gate?.registryUrl !== undefined) return options.gate.registryUrl;
          const origin = listening ?? options.publicOrigin;
          if (origin === undefined || services.registry === undefined) {
            throw new Error(
              'the gate needs this host to serve /registry/ on a known origin (serve it, or pass gate.registryUrl)',
            );
          }
          return `${origin}/registry/`;
        },
      },
      registry: openRegistryFolder(registryDirOf(options), {
        onSkip: (file, reason) => logger.warn({ file }, `registry: ${file} is left out: ${reason}`),
      }),
      enqueueBatcher: createEnqueueBatcher(db, {
        // PostgreSQL works in its own processes: a batch leaving before the turn's end is written
        // while the host reads the next deliveries. PGlite's work is this event loop's: fewer,
        // larger batches.
        spread: db.engine === 'postgres',
        onBatchError: (error, rows) =>
          logger.warn({ err: error, rows }, 'a batch of jobs was refused; its rows are written one by one'),
        onStored: () => jobsQueued.notify(),
      }),
      jobsQueued,
      // Job kinds run by their own modules' handlers: the events import none of them.
      jobKinds: { gate: gateJobKind, oauth_refresh: oauthRefreshJobKind },
      jobFinishes: createGroupCommit({
        writeMany: (inputs) => finishJobs(db, inputs),
        closedMessage: 'the host is closing; the job outcome was not recorded',
        onBatchError: (error, rows) =>
          logger.warn(
            { err: error, rows },
            'a batch of job outcomes was refused; they are written one by one',
          ),
      }),
      storageReads: createGroupCommit({
        writeMany: (keys) => readVersionedStorageMany(db, keys),
        closedMessage: 'the host is closing; the storage read was not made',
      }),
      logBudgets: createLogBudgets(
        {
          bytesPerCall: limits.logBytesPerCall,
          linesPerCall: limits.logLinesPerCall,
          bytesPerMinute: limits.logBytesPerMinute,
          linesPerMinute: limits.logLinesPerMinute,
        },
        () => now().getTime(),
      ),
    };
    const worker = createJobWorker(services, options.events?.worker);
    const scheduler = createScheduler(services, options.events?.scheduler);
    const events: HostEvents = {
      worker,
      scheduler,
      start() {
        worker.start();
        scheduler.start();
      },
      async stop(drainMs) {
        await scheduler.stop();
        return worker.stop(drainMs);
      },
    };
    return {
      app: createHostApp(services),
      services,
      db,
      events,
      listeningAt(origin) {
        listening = origin.replace(/\/+$/, '');
      },
      async close() {
        await events.stop(10_000);
        cache.close();
        await services.actionRateLimit.close().catch((error: unknown) => {
          logger.warn({ err: error }, 'rate limits: the last sync before closing failed');
        });
        await runtime.close();
        await fetch.close();
        await services.enqueueBatcher.close();
        await services.jobFinishes.close();
        await services.storageReads.close();
        await db.close();
      },
    };
  } catch (error) {
    cache.close();
    await db.close();
    throw error;
  }
}

/** Where the registry's tarballs are: the option, `PLATFORM_REGISTRY_DIR`, else `<dataDir>/registry`. */
export function registryDirOf(options: CreateHostOptions): string | undefined {
  const variable = envVar(options, 'PLATFORM_REGISTRY_DIR');
  if (options.registryDir !== undefined) return resolve(options.registryDir);
  if (variable !== undefined && variable !== '') return resolve(variable);
  return options.dataDir === undefined ? undefined : resolve(options.dataDir, 'registry');
}

function selectRuntime(options: CreateHostOptions, logger: Logger): Runtime {
  if (typeof options.runtime === 'object') return options.runtime;
  const variable = (name: string) => envVar(options, name);
  const kind = options.runtime ?? variable('PLATFORM_RUNTIME') ?? DEFAULT_RUNTIME;
  if (kind === 'isolated') {
    const runners = positiveInteger('PLATFORM_RUNNERS', variable('PLATFORM_RUNNERS'));
    const memoryLimitMb = positiveInteger(
      'PLATFORM_ISOLATE_MEMORY_MB',
      variable('PLATFORM_ISOLATE_MEMORY_MB'),
    );
    const maxIsolatesPerRunner = positiveInteger(
      'PLATFORM_ISOLATES_PER_RUNNER',
      variable('PLATFORM_ISOLATES_PER_RUNNER'),
    );
    const leftoverCpuMs = positiveInteger('PLATFORM_LEFTOVER_CPU_MS', variable('PLATFORM_LEFTOVER_CPU_MS'));
    logger.info('runtime: isolated (partner code runs in V8 isolates in runner processes)');
    return createIsolatedRuntime({
      ...(runners === undefined ? {} : { runners }),
      ...(memoryLimitMb === undefined ? {} : { memoryLimitMb }),
      ...(maxIsolatesPerRunner === undefined ? {} : { maxIsolatesPerRunner }),
      ...(leftoverCpuMs === undefined ? {} : { leftoverCpuMs }),
      onWarning: (message) => logger.warn(message),
      onReport: (report) => logRuntimeReport(logger, report),
    });
  }
  if (kind !== 'in-process') {
    throw new Error(`PLATFORM_RUNTIME is "${kind}"; set it to "isolated" or "in-process"`);
  }
  return createInProcessRuntime({
    ...(options.dataDir === undefined ? {} : { bundleDir: join(options.dataDir, 'bundles') }),
    onWarning: (message) => logger.warn(message),
  });
}

/** A refused borrowing is a security event; leftover work a warning about the integration. */
function logRuntimeReport(logger: Logger, report: RuntimeReport): void {
  const fields = { integration: report.integration, version: report.version, runner: report.runner };
  if (report.kind === 'capability_borrowing') {
    securityEvent(logger, 'capability_borrowing', fields, report.message);
  } else {
    logger.warn({ ...fields, kind: report.kind }, report.message);
  }
}

/** The partner log limits set by variables (of `env`, then of the process); `options.limits` wins over them. */
function logLimitsFromEnv(options: CreateHostOptions): Partial<HostLimits> {
  const variables = {
    logBytesPerCall: 'PLATFORM_LOG_BYTES_PER_CALL',
    logLinesPerCall: 'PLATFORM_LOG_LINES_PER_CALL',
    logBytesPerMinute: 'PLATFORM_LOG_BYTES_PER_MINUTE',
    logLinesPerMinute: 'PLATFORM_LOG_LINES_PER_MINUTE',
    logLineBytes: 'PLATFORM_LOG_LINE_BYTES',
  } as const;
  const limits: Partial<Record<keyof typeof variables, number>> = {};
  for (const [limit, name] of Object.entries(variables) as [keyof typeof variables, string][]) {
    const value = positiveInteger(name, envVar(options, name));
    if (value !== undefined) limits[limit] = value;
  }
  return limits;
}

/** A variable of `options.env`, else of the process. */
function envVar(options: CreateHostOptions, name: string): string | undefined {
  return options.env?.[name] ?? process.env[name];
}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new Error(
      `${name} is "${value}"; set it to a whole number of at least 1, or unset it for the default`,
    );
  }
  return number;
}
