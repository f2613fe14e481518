import ipaddr from 'ipaddr.js';

/** Readable names for ipaddr.js ranges, as refusal messages show them. */
const RANGE_NAMES: Readonly<Record<string, string>> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  as112: 'AS112 (reserved)',
  amt: 'AMT (reserved)',
  uniqueLocal: 'unique-local',
  ipv4Mapped: 'IPv4-mapped',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
  benchmarking: 'benchmarking (reserved)',
  as112v6: 'AS112 (reserved)',
  deprecatedOrchid: 'ORCHID (reserved)',
  orchid2: 'ORCHID (reserved)',
  droneRemoteIdProtocolEntityTags: 'DET (reserved)',
  segmentRouting: 'segment-routing (reserved)',
};

// Every IPv6 address outside 2000::/3 is unassigned or special, even where ipaddr.js has no
// name for it (IPv4-compatible ::a.b.c.d, 100::/64 and the like); only global unicast passes.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function rangeName(range: string): string {
  return RANGE_NAMES[range] ?? range;
}

/**
 * Why an address may not be reached from the server, or undefined when it may: only globally
 * routable unicast passes, plus loopback (127.0.0.0/8, ::1) when `allowLoopback` is on.
 * The answer names the address class, e.g. `"loopback"` or `"IPv4-mapped, embedding loopback 127.0.0.1"`.
 * @example refusedAddressClass('169.254.169.254', false) // 'link-local'
 */
export function refusedAddressClass(address: string, allowLoopback: boolean): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'unparseable';
  }
  if (parsed instanceof ipaddr.IPv6 && parsed.zoneId !== undefined) {
    // A scoped address only means something on one interface of this machine.
    return 'scoped (zone index)';
  }
  const range = parsed.range();
  if (allowLoopback && range === 'loopback') return undefined;
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) {
    // Mapped addresses reach the IPv4 host they embed: refused always, named by what they embed.
    const inner = parsed.toIPv4Address();
    return `IPv4-mapped, embedding ${rangeName(inner.range())} ${inner.toString()}`;
  }
  if (range !== 'unicast') return rangeName(range);
  if (parsed instanceof ipaddr.IPv6 && !parsed.match(GLOBAL_UNICAST_V6)) return 'non-global IPv6';
  return undefined;
}

/**
 * An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, `::ffff:a00:1`; how a dual-stack socket names an
 * IPv4 peer) as the IPv4 address it embeds; any other text as given. Read by ipaddr.js, as
 * {@link refusedAddressClass} reads them; the host's client addresses go through it.
 * @example unmappedAddress('::ffff:10.0.0.1') // '10.0.0.1'
 */
export function unmappedAddress(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address;
  const parsed = ipaddr.IPv6.parse(address);
  return parsed.isIPv4MappedAddress() && parsed.zoneId === undefined
    ? parsed.toIPv4Address().toString()
    : address;
}

/** An IP literal from a URL hostname (IPv6 without its brackets), or undefined for a name. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : undefined;
}
