import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './EgressFetch.js';

/** Per hostname, the addresses the latest request resolved and found allowed. */
export type CheckedAddresses = Map<string, readonly ResolvedAddress[]>;

/**
 * A `net.connect` lookup that answers only from addresses already checked, so a socket never
 * reaches an address the policy did not see: a rebinding DNS answer between the check and the
 * connection has nothing to change, because no second query is made. A hostname with no checked
 * entry fails instead of falling back to DNS.
 */
export function pinnedLookup(checked: CheckedAddresses): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const family = { 4: 4, 6: 6, IPv4: 4, IPv6: 6 }[String(options.family)];
    const answers = (checked.get(hostname) ?? []).filter((a) => family === undefined || a.family === family);
    const first = answers[0];
    if (first === undefined) {
      const error: NodeJS.ErrnoException = new Error(
        `no checked address for ${hostname}; the egress fetch connects only to addresses its policy approved`,
      );
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    if (options.all) {
      callback(
        null,
        answers.map(({ address, family }): LookupAddress => ({ address, family })),
      );
      return;
    }
    callback(null, first.address, first.family);
  };
}
