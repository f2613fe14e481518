import type { ValidationIssue } from '../runtime/_validate.js';
import type { ActionErrorCode, DevError } from '../runtime/envelope.js';

/**
 * The codes the client assigns itself: `network_error` (status 0) when the request never reached
 * the server, `invalid_response` (the response's status) when the body is not the route's envelope.
 */
export const CLIENT_ERROR_CODES = {
  networkError: 'network_error',
  invalidResponse: 'invalid_response',
} as const;

export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/**
 * A code of the actions route or of the client. Other codes a host may answer with (for example an
 * authorisation failure before the action runs) are passed through as the route sent them.
 */
export type IntegrationActionErrorCode = ActionErrorCode | ClientErrorCode | (string & {});

/** What every client-side route failure carries. */
export interface IntegrationRequestErrorInit {
  readonly code: string;
  /** The HTTP status, or 0 when the request never reached the server. */
  readonly status: number;
  readonly message: string;
  readonly issues?: readonly ValidationIssue[] | undefined;
  /** Harness only: the handler's own message and stack. */
  readonly devError?: DevError | undefined;
  readonly cause?: unknown;
}

/**
 * A failed call to one of an integration's routes (storage, OAuth status, actions), with the
 * route's `code` and HTTP `status`, or the client's own `network_error` / `invalid_response`.
 * @example
 * try { await fetchIntegrationStorage('acme-notes', { accountId, keys: ['settings'] }); }
 * catch (error) { if (error instanceof IntegrationRequestError && error.code === 'invalid_input') ... }
 */
export class IntegrationRequestError extends Error {
  override readonly name: string = 'IntegrationRequestError';
  readonly code: string;
  readonly status: number;
  readonly issues?: readonly ValidationIssue[];
  readonly devError?: DevError;

  constructor(init: IntegrationRequestErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    if (init.issues !== undefined) this.issues = init.issues;
    if (init.devError !== undefined) this.devError = init.devError;
  }
}

/**
 * Every rejection of `useIntegrationAction()`: the actions route's code (`action_not_found`,
 * `invalid_input` with `issues`, `rate_limited`, `conflict` (409: another call changed the stored
 * data this one read; retry it), `handler_error`), or `network_error` / `invalid_response` assigned
 * by the client. `status` is the HTTP status: a `handler_error` from
 * a `PublicActionError` carries its 4xx (400 unless the handler chose another, e.g. 409).
 * @example
 * onError: (error) => { if (error.code === 'invalid_input') showIssues(error.issues ?? []); }
 */
export class IntegrationActionError extends IntegrationRequestError {
  override readonly name: string = 'IntegrationActionError';
  declare readonly code: IntegrationActionErrorCode;
}

/**
 * True for an `IntegrationActionError`, also when it comes from another copy of this package
 * (a widget bundle may carry its own).
 * @example if (isIntegrationActionError(error) && error.code === 'rate_limited') retryLater();
 */
export function isIntegrationActionError(error: unknown): error is IntegrationActionError {
  return error instanceof Error && error.name === 'IntegrationActionError';
}
