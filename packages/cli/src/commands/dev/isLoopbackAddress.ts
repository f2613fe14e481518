/**
 * Whether an address names this machine only: `localhost`, `127.0.0.0/8` or `::1` (bracketed or not).
 * @example isLoopbackAddress('127.0.0.1') // true; isLoopbackAddress('0.0.0.0') // false
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Whether a `Host` header names this machine (any port): what the dev server answers unless the
 * harness is exposed. Userinfo, paths and whitespace have no place in it.
 * @example isLoopbackHost('127.0.0.1:5173') // true; isLoopbackHost('evil.example') // false
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined || host === '' || /[\s/?#@\\]/.test(host)) return false;
  try {
    return isLoopbackAddress(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
