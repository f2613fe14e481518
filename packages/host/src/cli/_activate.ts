import { callCapabilities } from '../capabilities/callCapabilities.js';
import type { Host } from '../createHost.js';
import { type InstalledVersion, upsertActivation } from '../store/integrations.js';

export interface ActivationOutcome {
  readonly created: boolean;
  /** Present when `onActivate` ran (a new activation): whether it succeeded. */
  readonly onActivate?: { readonly ok: boolean; readonly error?: string };
}

/**
 * Activates an integration for an account as the activation route does: the row first, then (for
 * a new activation) `onActivate`, whose writes are kept only when it succeeds and whose failure is
 * logged, never fatal.
 */
export async function activateIntegration(
  host: Host,
  input: { version: InstalledVersion; accountId: string; userId: string },
): Promise<ActivationOutcome> {
  const { services } = host;
  const { created } = await upsertActivation(host.db, {
    slug: input.version.slug,
    accountId: input.accountId,
    userId: input.userId,
    data: null,
  });
  if (!created) return { created };
  const { capabilities, commit } = callCapabilities(services, input);
  const result = await services.runtime.runActivate({
    version: input.version,
    capabilities,
    actor: { kind: 'user', userId: input.userId, accountId: input.accountId },
    timeoutMs: services.limits.actionTimeoutMs,
  });
  if (!result.ok) {
    services.logger.warn(
      { integration: input.version.slug, accountId: input.accountId },
      `onActivate failed: ${result.error.message}`,
    );
    return { created, onActivate: { ok: false, error: result.error.code } };
  }
  await commit();
  return { created, onActivate: { ok: true } };
}
