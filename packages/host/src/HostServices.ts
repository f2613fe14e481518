import type { Logger } from 'pino';
import type { Db } from './db/Db.js';
import type { HostFetch } from './egress/HostFetch.js';
import type { Runtime } from './runtime/Runtime.js';
import type { SecretBox } from './secrets/SecretBox.js';

/** Limits of DESIGN.md, all configurable. */
export interface HostLimits {
  readonly actionBodyBytes: number;
  readonly webhookBodyBytes: number;
  readonly actionTimeoutMs: number;
  readonly webhookTimeoutMs: number;
  readonly scheduleTimeoutMs: number;
  readonly fetchTimeoutMs: number;
  readonly maxRedirects: number;
  /** Action calls per user per minute. */
  readonly ratePerUser: number;
  /** Action calls per account per minute. */
  readonly ratePerAccount: number;
}

export const DEFAULT_LIMITS: HostLimits = {
  actionBodyBytes: 1024 * 1024,
  webhookBodyBytes: 5 * 1024 * 1024,
  actionTimeoutMs: 30_000,
  webhookTimeoutMs: 60_000,
  scheduleTimeoutMs: 15 * 60_000,
  fetchTimeoutMs: 30_000,
  maxRedirects: 5,
  ratePerUser: 1200,
  ratePerAccount: 5000,
};

/** Everything the routes need; one per host process. */
export interface HostServices {
  readonly db: Db;
  readonly runtime: Runtime;
  readonly secretBox: SecretBox;
  readonly fetch: HostFetch;
  readonly logger: Logger;
  readonly limits: HostLimits;
  /**
   * The host's public origin (`https://host.example`), used for OAuth redirect URIs and the
   * Origin check. Undefined: taken from each request's URL (local use).
   */
  readonly publicOrigin: string | undefined;
  readonly now: () => Date;
}
