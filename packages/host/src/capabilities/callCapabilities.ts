import { redactText } from '@platform/sdk/runtime';
import { authorizationValue, readConnectionValues } from '../connection/fieldConnection.js';
import type { HostServices } from '../HostServices.js';
import { connectionHooks } from '../oauth/connectionHooks.js';
import type { RunOnTokens } from '../oauth/refreshConnection.js';
import { securityEvent } from '../security/securityEvent.js';
import type { InstalledVersion } from '../store/integrations.js';
import { createHostCapabilities, type HostCall, type HostCallScope } from './createHostCapabilities.js';
import { createPartnerLog } from './createPartnerLog.js';

/**
 * Capabilities for one call of one version. Every partner log line (ctx.logger, console in an
 * isolate, the runtime's failure lines) is redacted and budgeted here, whatever the guest did.
 */
export function callCapabilities(
  services: HostServices,
  input: {
    version: InstalledVersion;
    accountId: string;
    userId: string | undefined;
    requestId?: string | undefined;
    /** See `HostCallScope.onSave` (a job's success mark and lease check). */
    onSave?: HostCallScope['onSave'];
    /** See `HostCallScope.onFinalWithoutWrites` (a job's success through the group commit). */
    onFinalWithoutWrites?: HostCallScope['onFinalWithoutWrites'];
  },
): HostCall {
  const identity = {
    integration: input.version.slug,
    version: input.version.number,
    accountId: input.accountId,
    requestId: input.requestId,
  };
  return createHostCapabilities({
    db: services.db,
    slug: input.version.slug,
    accountId: input.accountId,
    sourceId: input.version.sourceId,
    userId: input.userId,
    egress: input.version.manifest.egress,
    storageKeys: input.version.manifest.storage,
    secretBox: services.secretBox,
    readStorage: (at) => services.storageReads.submit(at),
    fetch: services.fetch,
    log: createPartnerLog({
      logger: services.logger,
      identity,
      budget: services.logBudgets.forCall(input.version.slug),
      lineBytes: services.limits.logLineBytes,
    }),
    ...(input.onSave === undefined ? {} : { onSave: input.onSave }),
    ...(input.onFinalWithoutWrites === undefined ? {} : { onFinalWithoutWrites: input.onFinalWithoutWrites }),
    ...(input.version.manifest.oauth === undefined
      ? {}
      : {
          oauthConnection: connectionHooks(
            services,
            input.version.slug,
            input.accountId,
            runRefreshedOnTokens(services),
          ),
        }),
    ...(input.version.manifest.connection?.authorization === undefined
      ? {}
      : {
          connectionAuthorization: {
            origins: input.version.manifest.connection.authorization.origins,
            value: async () => {
              const connection = input.version.manifest.connection!;
              const values = await readConnectionValues(
                services.db,
                services.secretBox,
                { slug: input.version.slug, accountId: input.accountId, sourceId: input.version.sourceId },
                connection,
              );
              return values === undefined ? undefined : authorizationValue(connection, values);
            },
          },
        }),
    onPrivateAddress: (error) =>
      securityEvent(
        services.logger,
        'egress_private_address',
        { ...identity, origin: error.origin },
        error.message,
      ),
  });
}

/**
 * Runs the partner's `onTokens` after the host refreshed an OAuth connection, as the callback
 * runs it but for a machine actor, and saves what it wrote. A failing `onTokens` is logged: the
 * host's token set stays refreshed (src/oauth/refreshConnection.ts).
 */
export function runRefreshedOnTokens(services: HostServices): RunOnTokens {
  return async (version, accountId, tokens) => {
    const { capabilities, commit } = callCapabilities(services, { version, accountId, userId: undefined });
    try {
      const result = await services.runtime.runOnTokens({
        version,
        capabilities,
        actor: { kind: 'machine', accountId },
        timeoutMs: services.limits.actionTimeoutMs,
        tokens,
      });
      if (!result.ok) throw new Error(`onTokens failed (${result.error.code})`);
      await commit();
    } catch (error) {
      services.logger.warn(
        {
          integration: version.slug,
          accountId,
          reason: redactText((error as Error).message ?? String(error)),
        },
        'onTokens after an OAuth refresh failed; the host keeps the refreshed token set',
      );
    }
  };
}
