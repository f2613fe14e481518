/** A parsed `egress` entry: an exact origin, or `https://*.<domain>` covering every subdomain. */
export type EgressPattern =
  | { readonly kind: 'origin'; readonly origin: string }
  | { readonly kind: 'wildcard'; readonly domain: string };

export type EgressPatternCheck =
  | { readonly ok: true; readonly pattern: EgressPattern }
  | { readonly ok: false; readonly message: string };

const WILDCARD = /^https:\/\/\*\.([^/:?#*]+)$/;
const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * Checks one `egress` entry and says how to write it when it is not an exact origin or wildcard.
 * @example parseEgressPattern('https://*.acme.com') // { ok: true, pattern: { kind: 'wildcard', domain: 'acme.com' } }
 */
export function parseEgressPattern(entry: string): EgressPatternCheck {
  const wildcard = WILDCARD.exec(entry);
  if (wildcard) {
    const domain = wildcard[1] ?? '';
    // The last label must hold a letter: `*.0.1` would otherwise cover IP addresses, which have no subdomains.
    if (!HOSTNAME.test(domain) || !/[a-z]/.test(domain.slice(domain.lastIndexOf('.') + 1))) {
      return {
        ok: false,
        message: `"${entry}" is not a valid wildcard; write "https://*.<domain>" with a domain of at least two lowercase labels, for example "https://*.acme.com"`,
      };
    }
    return { ok: true, pattern: { kind: 'wildcard', domain } };
  }
  if (entry.includes('*')) {
    return {
      ok: false,
      message: `"${entry}" is not a valid wildcard; only a leading subdomain wildcard over HTTPS is allowed, as in "https://*.acme.com"`,
    };
  }
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return {
      ok: false,
      message: `"${entry}" is not an origin; write the scheme and host, for example "https://api.acme.com"`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      ok: false,
      message: `"${entry}" uses ${url.protocol}; egress origins are https:// (or http://)`,
    };
  }
  if (url.origin !== entry) {
    return {
      ok: false,
      message: `"${entry}" is not an exact origin; write "${url.origin}" (no path, query, credentials, trailing slash or default port)`,
    };
  }
  return { ok: true, pattern: { kind: 'origin', origin: url.origin } };
}

/**
 * True when an origin is covered by an egress pattern. A wildcard covers subdomains at any depth
 * over HTTPS on the default port, never the bare domain.
 * @example egressPatternCovers({ kind: 'wildcard', domain: 'acme.com' }, 'https://api.acme.com') // true
 */
export function egressPatternCovers(pattern: EgressPattern, origin: string): boolean {
  if (pattern.kind === 'origin') return pattern.origin === origin;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.port === '' && url.hostname.endsWith(`.${pattern.domain}`);
}

/**
 * True when `url`'s origin is allowed by an egress list; malformed entries allow nothing.
 * @example isEgressAllowed('https://api.acme.com/v1?x=1', ['https://api.acme.com']) // true
 */
export function isEgressAllowed(url: string | URL, egress: readonly string[]): boolean {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return false;
  }
  return egress.some((entry) => {
    const check = parseEgressPattern(entry);
    return check.ok && egressPatternCovers(check.pattern, origin);
  });
}
