import { ACTION_ERROR_STATUS, type ActionEnvelope, type ActionError } from './envelope.js';

/**
 * The HTTP status of a failed action: the code's status, except a `handler_error` carrying a
 * `PublicActionError`'s `status`, taken only when it is an integer from 400 to 499. The envelope may
 * come from partner code (an isolate's JSON), so nothing else it says moves the status: a 5xx or
 * 2xx `status`, or one on another code, is ignored; an unknown code answers 500.
 * @example actionErrorStatus({ code: 'handler_error', message: 'Connect first', status: 409 }) // 409
 */
export function actionErrorStatus(error: Pick<ActionError, 'code' | 'status'>): number {
  const code: string = error.code;
  const status: unknown = error.status;
  if (code === 'handler_error' && isClientErrorStatus(status)) return status;
  return Object.hasOwn(ACTION_ERROR_STATUS, code)
    ? ACTION_ERROR_STATUS[code as keyof typeof ACTION_ERROR_STATUS]
    : 500;
}

/**
 * What an actions route answers for a failure: {@link actionErrorStatus} and the envelope without
 * `status` (the HTTP status carries it; the body keeps the spec's `{ code, message, ... }` shape).
 * @example const { status, body } = actionErrorResponse(envelope.error); return c.json(body, status);
 */
export function actionErrorResponse(error: ActionError): {
  readonly status: number;
  readonly body: ActionEnvelope;
} {
  const { status: _status, ...rest } = error;
  return { status: actionErrorStatus(error), body: { ok: false, error: rest } };
}

function isClientErrorStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 499;
}
