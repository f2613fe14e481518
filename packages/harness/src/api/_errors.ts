import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The harness API's error codes besides the actions route's own (`action_not_found`, `invalid_input`, `handler_error`). */
export type HarnessApiErrorCode =
  | 'forbidden'
  | 'not_found'
  | 'integration_not_found'
  | 'invalid_request'
  | 'unsupported_media_type'
  | 'invalid_input'
  | 'invalid_payload'
  | 'webhook_not_found'
  | 'schedule_not_found'
  | 'tool_not_found'
  | 'confirmation_required'
  | 'not_configured'
  | 'invalid_signature'
  // A connection's verify request did not answer 2xx (nothing stored).
  | 'verify_failed'
  | 'internal_error';

/**
 * The one JSON error shape of every harness route, the host's: `{ ok: false, error: { code, message, ... } }`.
 * @example return errorResponse(c, 404, 'webhook_not_found', 'Unknown webhook "x".');
 */
export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  code: HarnessApiErrorCode | 'action_not_found',
  message: string,
  extra: Record<string, unknown> = {},
): Response {
  return c.json({ ok: false, error: { code, message, ...extra } }, status);
}
