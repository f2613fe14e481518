import type { HostServices } from '../HostServices.js';
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
    onPrivateAddress: (error) =>
      securityEvent(
        services.logger,
        'egress_private_address',
        { ...identity, origin: error.origin },
        error.message,
      ),
  });
}
