import type { CapabilityFetchRequest, CapabilityFetchResponse } from '@platform/sdk/runtime';

/**
 * The host's one-hop fetch: refuses an origin outside `egress` and any name that resolves to a
 * private, loopback, link-local, unique-local or IPv4-mapped address, and connects to the very
 * address it checked. Throws `EgressDeniedError` on refusal.
 */
export type HostFetch = (
  request: CapabilityFetchRequest,
  egress: readonly string[],
) => Promise<CapabilityFetchResponse>;
