import type { Logger } from 'pino';

/**
 * What an operator may see an attack as: one kind per rule the host enforced against a caller or
 * against partner code. Every kind is logged the same way, so `event: "security"` finds them all.
 */
export type SecurityEventKind =
  /** A capability, log or timer request from an isolate for a call that isolate is not running. */
  | 'capability_borrowing'
  /** `ctx.fetch` to an allowlisted name that resolved to a private, loopback or link-local address. */
  | 'egress_private_address'
  /** A webhook whose signature did not verify. */
  | 'webhook_forged'
  /** An OAuth callback with an unknown, expired, reused or foreign state. */
  | 'oauth_state'
  /** A caller over a rate limit. */
  | 'rate_limited'
  /** A call or an integration over its log budget. */
  | 'log_budget'
  /** A cookie-authenticated state change from another origin, or with no origin at all. */
  | 'cross_origin'
  /** A wrong, malformed or replayed TOTP code (the code itself is never logged). */
  | 'mfa_failed'
  /** An uploaded project refused before the gate: local secrets, paths escaping its root, links. */
  | 'publish_refused'
  /** An OAuth connection's health changed (healthy, backoff, exhausted, revoked: src/oauth/refreshConnection.ts). */
  | 'oauth_connection_state';

/** Who and what a security event is about; never a secret, token, state or code value. */
export interface SecurityEventFields {
  readonly integration?: string | undefined;
  readonly version?: number | string | undefined;
  readonly accountId?: string | undefined;
  readonly userId?: string | undefined;
  /** Runner process id, for events from the isolated runtime. */
  readonly runner?: number | undefined;
  readonly requestId?: string | undefined;
  readonly [field: string]: unknown;
}

/**
 * Logs one structured security event: a separate line with `event: "security"` and its `kind`, at
 * warn level, so an operator can filter for them.
 * @example securityEvent(logger, 'webhook_forged', { integration: slug, accountId }, 'webhook signature did not verify');
 */
export function securityEvent(
  logger: Logger,
  kind: SecurityEventKind,
  fields: SecurityEventFields,
  message: string,
): void {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  logger.warn({ ...defined, event: 'security', kind }, message);
}
