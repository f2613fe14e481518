import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Host error codes beyond the action route's own. */
export type HostErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'invalid_request'
  | 'account_not_found'
  | 'integration_not_found'
  | 'not_activated'
  | 'webhook_not_found'
  | 'invalid_signature'
  | 'invalid_payload'
  // A webhook's synchronous reply failed, timed out or was refused (nothing queued).
  | 'handler_error'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'rate_limited'
  | 'invalid_input'
  | 'internal_error'
  // Sign-in, sources and versions (the publish pipeline).
  | 'auth_required'
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token'
  | 'source_not_found'
  | 'version_not_found'
  // An account's tool served to models (the MCP tool catalog).
  | 'tool_not_found'
  // A placement the user's dashboard in the account does not have.
  | 'widget_not_found'
  | 'slug_taken'
  | 'invalid_archive'
  | 'conflict'
  // A connection's verify request did not answer 2xx (nothing stored).
  | 'verify_failed';

/** The one JSON error shape of every host route. */
export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  code: HostErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
): Response {
  return c.json({ ok: false, error: { code, message, ...extra } }, status);
}

/** Thrown inside a route to answer with an error envelope. */
export class RouteError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: HostErrorCode,
    message: string,
    /** More fields of the error object, such as `hint` (what to do) or `reason`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The request id the host's middleware set on this request (for log lines), if any. */
export const requestIdOf = (c: Context): string | undefined =>
  c.get('requestId' as never) as string | undefined;
