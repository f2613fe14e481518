import type { Context } from 'hono';
import type { HostServices } from '../HostServices.js';
import { consumeRateLimit, type RateLimitBucket } from '../rateLimit.js';
import { type SecurityEventFields, securityEvent } from '../security/securityEvent.js';
import { RouteError, requestIdOf } from './_errors.js';

/**
 * Counts one attempt against `bucket` (a one-minute window shared by every instance); past its
 * limit answers 429 `rate_limited` with `Retry-After` and a hint, and logs one `rate_limited`
 * security event per window (never per refused attempt).
 */
export async function limitPerMinute(
  services: HostServices,
  c: Context,
  input: {
    bucket: RateLimitBucket;
    fields: SecurityEventFields;
    event: string;
    message: string;
    hint: (retryAfterSeconds: number) => string;
  },
): Promise<void> {
  const result = await consumeRateLimit(services.db, [input.bucket], services.now());
  if (result.allowed) return;
  if (result.firstRefusal) {
    securityEvent(
      services.logger,
      'rate_limited',
      { ...input.fields, limits: result.exceeded, requestId: requestIdOf(c) },
      input.event,
    );
  }
  c.header('Retry-After', String(result.retryAfterSeconds));
  throw new RouteError(429, 'rate_limited', input.message, { hint: input.hint(result.retryAfterSeconds) });
}
