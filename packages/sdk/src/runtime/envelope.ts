import type { ValidationIssue } from './_validate.js';

/** The action route's error codes and their HTTP statuses. */
export const ACTION_ERROR_STATUS = {
  action_not_found: 404,
  invalid_input: 400,
  rate_limited: 429,
  handler_error: 500,
} as const;

export type ActionErrorCode = keyof typeof ACTION_ERROR_STATUS;

/** The message every non-public handler failure answers with. */
export const ACTION_FAILED_MESSAGE = 'Action failed.';

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
