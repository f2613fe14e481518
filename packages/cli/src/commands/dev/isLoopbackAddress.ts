/**
 * Whether an address names this machine only: `localhost`, `127.0.0.0/8` or `::1` (bracketed or not).
 * @example isLoopbackAddress('127.0.0.1') // true; isLoopbackAddress('0.0.0.0') // false
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
