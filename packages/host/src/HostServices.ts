import type { EgressFetch } from '@platform/sdk/server';
import type { Logger } from 'pino';
import type { HostCache } from './cache/hostCache.js';
import type { LogBudgets } from './capabilities/logBudget.js';
import type { Db, Queryable } from './db/Db.js';
import type { GroupCommit } from './db/groupCommit.js';
import type { EnqueueBatcher } from './events/enqueueBatcher.js';
import type { FinishJobInput, Job, JobKind, JobOutcome, RetryPolicy } from './events/jobs.js';
import type { QueueSignal } from './events/queueSignal.js';
import type { GateLimits } from './gate/index.js';
import type { RateLimiter } from './rateLimit.js';
import type { RegistryFolder } from './registry/registryFolder.js';
import type { Runtime } from './runtime/Runtime.js';
import type { SecretBox } from './secrets/SecretBox.js';
import type { TrustedProxies } from './security/clientAddress.js';
import type { StoredKey, VersionedStorageValue } from './store/storage.js';

/** The limits of docs/design.md ("Limits"), all configurable. */
export interface HostLimits {
  readonly actionBodyBytes: number;
  readonly webhookBodyBytes: number;
  readonly actionTimeoutMs: number;
  readonly webhookTimeoutMs: number;
  /** Budget of a webhook's synchronous `reply` (ingress answers 500 past it and queues nothing). */
  readonly webhookReplyTimeoutMs: number;
  readonly scheduleTimeoutMs: number;
  readonly fetchTimeoutMs: number;
  readonly maxRedirects: number;
  /** Action calls per user per minute. */
  readonly ratePerUser: number;
  /** Action calls per account per minute. */
  readonly ratePerAccount: number;
  /** Partner log per call: UTF-8 bytes of the redacted lines (message + fields JSON), and lines. */
  readonly logBytesPerCall: number;
  readonly logLinesPerCall: number;
  /** Partner log per integration per fixed minute, in one host process. */
  readonly logBytesPerMinute: number;
  readonly logLinesPerMinute: number;
  /** One partner log line; a longer message is cut with a marker, larger fields are dropped. */
  readonly logLineBytes: number;
  /** A packed project uploaded by `platform publish`. */
  readonly publishArchiveBytes: number;
  /** Seconds the CLI waits between polls of a device sign-in; sooner is `slow_down` (0: no wait, for tests). */
  readonly devicePollIntervalSeconds: number;
  /** Days a CLI session from a device sign-in lasts; the tokens it mints end with it. */
  readonly cliSessionDays: number;
  /** TOTP codes a user may try per minute (sign-in verification and enrolment together). */
  readonly mfaAttemptsPerMinute: number;
  /** Password sign-in attempts per email a minute (all instances together). */
  readonly signInAttemptsPerMinute: number;
  /** Device codes (`POST /api/platform/device/code`) one client address may ask for a minute (all instances together). */
  readonly deviceCodesPerMinute: number;
  /** Password sign-ins one client address may try a minute (all instances together). */
  readonly signInsPerAddressPerMinute: number;
  /** Device token polls (`POST /api/platform/device/token`) from one client address a minute. */
  readonly deviceTokenPollsPerMinute: number;
  /** Uploads (`POST /api/platform/sources/:source/versions`) one user may make to one source a minute. */
  readonly uploadsPerSeatPerMinute: number;
  /** Device sign-in answers (`POST /api/platform/device/approve`) from one client address a minute. */
  readonly deviceApprovalsPerMinute: number;
  /** Look-ups of who asked for a code (`GET /api/platform/device/requests/:userCode`) from one client address a minute. */
  readonly deviceLookupsPerMinute: number;
  /** The body of a JSON route under `/api/platform` and `/api/integrations/<slug>/activation`, in bytes. */
  readonly jsonBodyBytes: number;
  /** Arrays and objects nested in such a body. */
  readonly jsonBodyDepth: number;
}

export const DEFAULT_LIMITS: HostLimits = {
  actionBodyBytes: 1024 * 1024,
  webhookBodyBytes: 5 * 1024 * 1024,
  actionTimeoutMs: 30_000,
  webhookTimeoutMs: 60_000,
  webhookReplyTimeoutMs: 2000,
  scheduleTimeoutMs: 15 * 60_000,
  fetchTimeoutMs: 30_000,
  maxRedirects: 5,
  ratePerUser: 1200,
  ratePerAccount: 5000,
  logBytesPerCall: 64 * 1024,
  logLinesPerCall: 200,
  logBytesPerMinute: 1024 * 1024,
  logLinesPerMinute: 2000,
  logLineBytes: 8 * 1024,
  publishArchiveBytes: 20 * 1024 * 1024,
  devicePollIntervalSeconds: 2,
  cliSessionDays: 30,
  mfaAttemptsPerMinute: 10,
  signInAttemptsPerMinute: 10,
  deviceCodesPerMinute: 30,
  signInsPerAddressPerMinute: 30,
  deviceTokenPollsPerMinute: 120,
  uploadsPerSeatPerMinute: 20,
  deviceApprovalsPerMinute: 30,
  deviceLookupsPerMinute: 30,
  jsonBodyBytes: 256 * 1024,
  jsonBodyDepth: 32,
};

/** A kind of job run by a handler its owning module registers in `services.jobKinds`. */
export interface JobKindHandler {
  /** Runs one claimed job and records its outcome while `worker` holds it (see `jobFinisher`). */
  run(services: HostServices, job: Job, worker: string, retry: RetryPolicy): Promise<JobOutcome>;
  /**
   * Cleans up after a job of this kind that failed for good because its worker stopped with no
   * attempts left (`failAbandonedJobs`): the gate rejects the submission, so it still gets a verdict.
   */
  abandoned?(db: Queryable, target: string, now: Date): Promise<void>;
}

/** The registered job kinds: every kind but the events' own webhook and schedule runs. */
export type JobKinds = Readonly<Partial<Record<Exclude<JobKind, 'webhook' | 'schedule'>, JobKindHandler>>>;

/** How this instance runs the publish gate. */
export interface GateSettings {
  /**
   * Where the gate installs `@platform/*` from: this host's own `/registry/` (known once the
   * server listens; `platform-host serve` sets it). Throws when the host serves no registry.
   */
  readonly registryUrl: () => string;
  /** The registry for every other package; default: npm's configured registry. */
  readonly npmRegistry?: string | undefined;
  /** Where scratch folders are made; default the OS temp folder. */
  readonly scratchDir?: string | undefined;
  /** Gate jobs running at once in this instance (they are CPU heavy). Default 1. */
  readonly concurrency: number;
  readonly limits?: GateLimits | undefined;
}

/** How the host refreshes OAuth connections (src/oauth/refreshConnection.ts), all configurable (`createHost({ oauthRefresh })`). */
export interface OAuthRefreshSettings {
  /** A connection is refreshed this long before its access token expires (default 15 minutes). */
  readonly beforeExpiryMs: number;
  /** The first wait after a failed refresh (default 30 s); it doubles at each failure in a row... */
  readonly backoffBaseMs: number;
  /** ...up to this (default 1 hour). */
  readonly backoffMaxMs: number;
  /** Failing on this many days (counted from the first failure in a row) makes the connection `exhausted` (default 4). */
  readonly exhaustedAfterDays: number;
  /** The longest a refresh waits for the token endpoint while it holds the connection's row lock (default 10 s). */
  readonly providerTimeoutMs: number;
}

export const DEFAULT_OAUTH_REFRESH: OAuthRefreshSettings = {
  beforeExpiryMs: 15 * 60_000,
  backoffBaseMs: 30_000,
  backoffMaxMs: 60 * 60_000,
  exhaustedAfterDays: 4,
  providerTimeoutMs: 10_000,
};

/** Everything the routes need; one per host process. */
export interface HostServices {
  readonly db: Db;
  readonly runtime: Runtime;
  readonly secretBox: SecretBox;
  readonly fetch: EgressFetch;
  readonly logger: Logger;
  readonly limits: HostLimits;
  readonly oauthRefresh: OAuthRefreshSettings;
  /** The partner log budgets (per call, and per integration per minute in this process). */
  readonly logBudgets: LogBudgets;
  /**
   * The host's public origin (`https://host.example`), the only source of absolute URLs (OAuth
   * redirect URIs, the device verification URI, registry tarballs, MCP hints) and of the Origin
   * check: `createHost({ publicOrigin })`, else the address `serve` listens on. Undefined only for
   * a host not serving (tests, library use): then taken from each request's URL.
   */
  readonly publicOrigin: string | undefined;
  /** The reverse proxies whose `X-Forwarded-For` names the client (per-address limits); `NO_TRUSTED_PROXIES` for none. */
  readonly trustedProxies: TrustedProxies;
  readonly now: () => Date;
  readonly gate: GateSettings;
  /** The package tarballs served under `/registry/` (none when undefined). */
  readonly registry?: RegistryFolder | undefined;
  /** Group commit of webhook deliveries (src/events/enqueueBatcher.ts; closed with the host, before the database). */
  readonly enqueueBatcher: EnqueueBatcher;
  /**
   * Told when this instance committed jobs ready to run (a fired page of schedule runs, a batch of
   * webhook deliveries); the instance's worker then claims at once rather than at its next poll.
   */
  readonly jobsQueued: QueueSignal;
  /**
   * Group commit of job outcomes recorded outside a transaction (src/db/groupCommit.ts over
   * `finishJobs`: a success with nothing to save, a failure, a retry): answers whether the worker
   * still held the job. Closed with the host, after the worker stops and before the database.
   */
  readonly jobFinishes: GroupCommit<FinishJobInput, boolean>;
  /**
   * The job kinds the events run through a handler their own module registers (createHost: the
   * publish gate's `gate` jobs), so the job runner imports none of them. Webhook deliveries and
   * schedule runs are the events' own.
   */
  readonly jobKinds: JobKinds;
  /**
   * Calls' first storage reads outside a transaction, grouped the same way
   * (src/db/groupCommit.ts over `readVersionedStorageMany`): the reads of calls running at the same
   * moment go in one statement. Closed with the host, before the database.
   */
  readonly storageReads: GroupCommit<StoredKey, VersionedStorageValue>;
  /**
   * Memoized database answers, dropped on every instance within `cache.staleAfterMs` of a change
   * to the tables of `WATCHED_TABLES` (src/cache/hostCache.ts; the action call's resolution uses it).
   */
  readonly cache: HostCache;
  /** The action calls' per-user and per-account limits, counted in memory and shared through `rate_limits`. */
  readonly actionRateLimit: RateLimiter;
}
