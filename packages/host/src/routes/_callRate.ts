import type { HostServices } from '../HostServices.js';
import { securityEvent } from '../security/securityEvent.js';

/**
 * Counts one call of partner code by a user for an account against the per-user and per-account
 * limits (`ratePerUser`, `ratePerAccount`): actions and tools share them. Over a limit, the first
 * refusal per limit and minute is logged as the `rate_limited` security event.
 */
export async function consumeCallRate(
  services: HostServices,
  call: {
    integration: string;
    accountId: string;
    userId: string;
    requestId: string | undefined;
    what: string;
  },
): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  const limit = await services.actionRateLimit.consume(
    [
      { key: `user:${call.userId}`, limit: services.limits.ratePerUser, name: 'per_user' },
      { key: `account:${call.accountId}`, limit: services.limits.ratePerAccount, name: 'per_account' },
    ],
    services.now(),
  );
  if (limit.allowed) return { allowed: true };
  if (limit.firstRefusal) {
    securityEvent(
      services.logger,
      'rate_limited',
      {
        integration: call.integration,
        accountId: call.accountId,
        userId: call.userId,
        limit: limit.exceeded.join(','),
        retryAfterSeconds: limit.retryAfterSeconds,
        requestId: call.requestId,
      },
      `${call.what} refused: over the rate limit (logged once per limit and minute)`,
    );
  }
  return { allowed: false, retryAfterSeconds: limit.retryAfterSeconds };
}
