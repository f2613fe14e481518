import type { ValidationIssue } from './_validate.js';

/** The action route's error codes and their HTTP statuses. */
export const ACTION_ERROR_STATUS = {
  action_not_found: 404,
  invalid_input: 400,
  rate_limited: 429,
  /** Another call changed stored data this call read (`StorageConflictError`): retry the call. */
  conflict: 409,
  handler_error: 500,
} as const;

export type ActionErrorCode = keyof typeof ACTION_ERROR_STATUS;

/** The message every non-public handler failure answers with. */
export const ACTION_FAILED_MESSAGE = 'Action failed.';

/** The message of `conflict`, the same in production and in the harness. */
export const STORAGE_CONFLICT_MESSAGE = 'Another call changed the same stored data; retry the call.';

export interface DevError {
  readonly message: string;
  readonly stack?: string;
}

export interface ActionError {
  readonly code: ActionErrorCode;
  readonly message: string;
  readonly issues?: readonly ValidationIssue[];
  /** Harness only; production never sends it. */
  readonly devError?: DevError;
  /**
   * `handler_error` from a `PublicActionError`: its 4xx status. Routes answer with
   * `actionErrorStatus()` (which never trusts it beyond 400-499) and do not send it in the body.
   */
  readonly status?: number;
}

/** What the actions route answers with. */
export type ActionEnvelope<T = unknown> =
  | { readonly ok: true; readonly data: T }
  | { readonly ok: false; readonly error: ActionError };

/** The failure shape of webhook, schedule, activation and onTokens runs (for logs, never for partners' users). */
export interface RunError<C extends string = string> {
  readonly code: C;
  readonly message: string;
  readonly issues?: readonly ValidationIssue[];
}

export type RunResult<C extends string = string> =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: RunError<C> };
