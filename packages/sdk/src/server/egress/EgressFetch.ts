import type { CapabilityFetchRequest, CapabilityFetchResponse } from '@platform/sdk/runtime';

/**
 * The server side's one-hop fetch: refuses an origin outside `egress` and any name that resolves
 * to a private, loopback, link-local, unique-local or IPv4-mapped address, and connects to the
 * very address it checked. Throws `EgressDeniedError` on refusal and a `TypeError` (as fetch
 * does) when the network fails or the request times out.
 */
export type EgressFetch = (
  request: CapabilityFetchRequest,
  egress: readonly string[],
) => Promise<CapabilityFetchResponse>;

/** One address a name resolved to, as `EgressFetchOptions.lookup` answers. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}
