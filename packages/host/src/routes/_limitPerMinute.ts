import type { Context } from 'hono';
import type { HostServices } from '../HostServices.js';
import { consumeRateLimit, type RateLimitBucket } from '../rateLimit.js';
import { clientAddress } from '../security/clientAddress.js';
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

/**
 * The per-client-address limit of an anonymous route (sign-in, device code, token, approve):
 * `limit` requests from one address a minute, across instances; past it 429 `rate_limited`. A
 * request through no socket (a test's `app.request()`) has no address and is not counted.
 * @example await limitPerAddress(services, c, { name: 'sign_in', limit: 30, hint: (s) => `Wait ${s} seconds.` });
 */
export async function limitPerAddress(
  services: HostServices,
  c: Context,
  input: { name: string; limit: number; what: string; hint: (retryAfterSeconds: number) => string },
): Promise<void> {
  const address = clientAddress(c, services.trustedProxies);
  if (address === undefined) return;
  await limitPerMinute(services, c, {
    bucket: { key: `${input.name}:${address}`, limit: input.limit, name: `${input.name}_per_address` },
    fields: { address },
    event: `too many ${input.what} for one client address`,
    message: `More than ${input.limit} ${input.what} for this address in a minute.`,
    hint: input.hint,
  });
}
