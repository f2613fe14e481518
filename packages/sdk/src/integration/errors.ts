/** Stable codes of the runtime errors, one map for every error class below. */
export const RUNTIME_ERROR_CODES = {
  storageValidation: 'STORAGE_VALIDATION_FAILED',
  egressDenied: 'EGRESS_DENIED',
  secretAccess: 'SECRET_ACCESS_DENIED',
  machineActorStorage: 'MACHINE_ACTOR_STORAGE',
  noRecordedResponse: 'NO_RECORDED_RESPONSE',
  oauthConnectionRefused: 'OAUTH_CONNECTION_REFUSED',
  storageConflict: 'STORAGE_CONFLICT',
  vendorHttp: 'VENDOR_HTTP_ERROR',
  oauthConnectionUnavailable: 'OAUTH_CONNECTION_UNAVAILABLE',
} as const;

/** Options of a {@link PublicActionError}: `status` is the 4xx the action answers with (default 400). */
export interface PublicActionErrorOptions extends ErrorOptions {
  readonly status?: number;
}

/**
 * Thrown by an action handler to show its message to the caller: the production host returns it
 * verbatim under `handler_error`, with `status` (a 4xx, default 400; the harness answers the same
 * status but still says `Action failed.`).
 * @example throw new PublicActionError('Connect your Acme account first.', { status: 409 });
 */
export class PublicActionError extends Error {
  override readonly name = 'PublicActionError';
  readonly status: number;

  constructor(message?: string, options?: PublicActionErrorOptions) {
    const status = options?.status ?? 400;
    if (!Number.isInteger(status) || status < 400 || status > 499) {
      throw new TypeError(
        `PublicActionError status must be an integer from 400 to 499 (a client error the caller can act on); got ${String(status)}. Leave it out for 400.`,
      );
    }
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
  }
}

/** A storage key that is not declared, a write failing the key's schema, or stored data that no longer matches it. */
export class StorageValidationError extends Error {
  override readonly name = 'StorageValidationError';
  readonly code = RUNTIME_ERROR_CODES.storageValidation;
  readonly scope: 'account' | 'user';
  readonly key: string;
  readonly hint: string;

  constructor(scope: 'account' | 'user', key: string, problem: string, hint: string, options?: ErrorOptions) {
    super(`ctx.storage.${scope} "${key}": ${problem}. ${hint}`, options);
    this.scope = scope;
    this.key = key;
    this.hint = hint;
  }
}

/**
 * Another call changed a storage key this call read, between the read and this call's commit (or
 * `ctx.checkpoint()`): nothing of that commit was written. The whole call may be retried; the
 * host answers an action with `conflict` (409) and retries a webhook delivery or schedule run.
 */
export class StorageConflictError extends Error {
  override readonly name = 'StorageConflictError';
  readonly code = RUNTIME_ERROR_CODES.storageConflict;
  readonly scope: 'account' | 'user';
  readonly key: string;

  constructor(scope: 'account' | 'user', key: string, message?: string) {
    super(
      message ??
        `ctx.storage.${scope} "${key}" was changed by another call after this call read it, so this call's writes were not saved; the call may be retried`,
    );
    this.scope = scope;
    this.key = key;
  }
}

/** `ctx.fetch` to an origin outside the definition's egress, or to a private address (`reason`). */
export class EgressDeniedError extends Error {
  override readonly name = 'EgressDeniedError';
  readonly code = RUNTIME_ERROR_CODES.egressDenied;
  readonly origin: string;
  readonly reason: string | undefined;

  constructor(origin: string, message: string, reason?: string) {
    super(message);
    this.origin = origin;
    this.reason = reason;
  }
}

/** The states of an OAuth connection in which the host cannot give a handler a working token. */
export type UnavailableConnectionState = 'backoff' | 'exhausted' | 'revoked';

/**
 * `ctx.fetch` with the account's OAuth access token (`Authorization: Bearer ...`) while the host
 * cannot refresh it: `backoff` (the last refreshes failed; the host tries again later),
 * `exhausted` (they failed for days; the host stopped) or `revoked` (the provider refused the
 * refresh token). Thrown instead of the provider's 401; `exhausted` and `revoked` need the
 * account to connect again.
 */
export class OAuthConnectionUnavailableError extends Error {
  override readonly name = 'OAuthConnectionUnavailableError';
  readonly code = RUNTIME_ERROR_CODES.oauthConnectionUnavailable;
  readonly state: UnavailableConnectionState;

  constructor(state: UnavailableConnectionState, message?: string) {
    super(
      message ??
        (state === 'backoff'
          ? 'The OAuth connection failed to refresh its token; the host retries later.'
          : state === 'exhausted'
            ? 'The OAuth connection failed to refresh its token for days; the account must connect again.'
            : 'The provider revoked the OAuth connection; the account must connect again.'),
    );
    this.state = state;
  }
}

/** `ctx.secrets.set()` on a name that exists only in admin-issued tiers (source, global). */
export class SecretAccessError extends Error {
  override readonly name = 'SecretAccessError';
  readonly code = RUNTIME_ERROR_CODES.secretAccess;
  readonly secretName: string;

  constructor(secretName: string, message?: string) {
    super(
      message ??
        `ctx.secrets.set("${secretName}") refused: "${secretName}" is an admin-issued secret; integrations may only write account-tier secrets, so store under another name`,
    );
    this.secretName = secretName;
  }
}

/** `ctx.storage.user` used by a machine actor (webhook, schedule). */
export class MachineActorStorageError extends Error {
  override readonly name = 'MachineActorStorageError';
  readonly code = RUNTIME_ERROR_CODES.machineActorStorage;

  constructor() {
    super(
      'ctx.storage.user is unavailable to machine actors (webhooks and schedules run without a user); use ctx.storage.account',
    );
  }
}

/** A mocked `ctx.fetch` that no handler or fixture answers; the request is refused, never sent. */
export class NoRecordedResponseError extends Error {
  override readonly name = 'NoRecordedResponseError';
  readonly code = RUNTIME_ERROR_CODES.noRecordedResponse;
  readonly method: string;
  readonly url: string;

  constructor(method: string, url: string, hint: string) {
    super(`No recorded response for ${method} ${url}; the request was refused, not sent. ${hint}`);
    this.method = method;
    this.url = url;
  }
}

/** The reasons `onTokens` may give to refuse a connection; they become the callback's error code. */
export type OAuthRefusalCode = 'wrong_workspace' | 'organization_access';

/**
 * Thrown by `onTokens` to refuse a connection; the callback redirects with `<slug>_oauth_error=<reason>`.
 * @example throw new OAuthConnectionRefusedError('wrong_workspace', 'Connect the Acme workspace set up for this account.');
 */
export class OAuthConnectionRefusedError extends Error {
  override readonly name = 'OAuthConnectionRefusedError';
  readonly code = RUNTIME_ERROR_CODES.oauthConnectionRefused;
  readonly reason: OAuthRefusalCode;

  constructor(reason: OAuthRefusalCode, message?: string) {
    super(message ?? `Connection refused: ${reason}`);
    this.reason = reason;
  }
}

// Partner bundles carry their own copy of this module, so class identity is not enough: match by name.
export function isErrorNamed<T extends Error>(error: unknown, name: string): error is T {
  return error instanceof Error && error.name === name;
}
