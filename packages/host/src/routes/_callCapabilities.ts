import { createHostCapabilities } from '../capabilities/createHostCapabilities.js';
import type { HostServices } from '../HostServices.js';
import type { InstalledVersion } from '../store/integrations.js';

/** Capabilities for one call of one version, logging through the host logger with the call's identity. */
export function callCapabilities(
  services: HostServices,
  input: {
    version: InstalledVersion;
    accountId: string;
    userId: string | undefined;
    requestId?: string | undefined;
  },
) {
  const logger = services.logger.child({
    integration: input.version.slug,
    version: input.version.number,
    accountId: input.accountId,
    ...(input.requestId === undefined ? {} : { requestId: input.requestId }),
  });
  return createHostCapabilities({
    db: services.db,
    slug: input.version.slug,
    accountId: input.accountId,
    sourceId: input.version.sourceId,
    userId: input.userId,
    egress: input.version.manifest.egress,
    secretBox: services.secretBox,
    fetch: services.fetch,
    log: (entry) => logger[entry.level]({ partner: true, ...(entry.fields ?? {}) }, entry.message),
  });
}
