import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { unmappedAddress } from '@platform/sdk/server';
import type { Context } from 'hono';

/** The reverse proxies whose `X-Forwarded-For` the host believes (`PLATFORM_TRUSTED_PROXIES`). */
export interface TrustedProxies {
  has(address: string): boolean;
}

/** No proxy trusted: the connection's peer is the client. */
export const NO_TRUSTED_PROXIES: TrustedProxies = { has: () => false };

/**
 * Parses a comma-separated list of addresses and CIDR ranges (`127.0.0.1, 10.0.0.0/8, fd00::/8`);
 * throws naming the entry that is neither, and the variable to fix.
 * @example parseTrustedProxies('10.0.0.0/8').has('10.1.2.3') // true
 */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const entries = (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return NO_TRUSTED_PROXIES;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const widest = family === 4 ? 32 : 128;
    const bits = prefix === undefined ? widest : Number(prefix);
    if (family === 0 || extra !== undefined || !Number.isInteger(bits) || bits < 0 || bits > widest) {
      throw new Error(
        `PLATFORM_TRUSTED_PROXIES has "${entry}", which is not an IP address or CIDR range; list your reverse proxies' addresses, e.g. "127.0.0.1, 10.0.0.0/8"`,
      );
    }
    list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    has(address) {
      const bare = unmappedAddress(address);
      const family = isIP(bare);
      return family !== 0 && list.check(bare, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * The address of the client that sent the request: the connection's peer, unless that peer is a
 * trusted proxy; then the last `X-Forwarded-For` entry that is not a trusted proxy (entries before
 * it are the client's own word). Undefined when the request came through no socket (a test's
 * `app.request`).
 * @example clientAddress(c, parseTrustedProxies('127.0.0.1')) // '203.0.113.7'
 */
export function clientAddress(c: Context, trusted: TrustedProxies): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const peer = incoming?.socket?.remoteAddress;
  if (peer === undefined) return undefined;
  let client = unmappedAddress(peer);
  if (!trusted.has(client)) return client;
  const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((hop) => unmappedAddress(hop.trim()));
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index]!;
    if (isIP(hop) === 0) break;
    client = hop;
    if (!trusted.has(hop)) break;
  }
  return client;
}
