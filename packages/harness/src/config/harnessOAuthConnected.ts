import type { HarnessRegistryEntry, HarnessVariant } from '../types.js';

/**
 * Whether fixtures mode reports the entry's OAuth connection as connected under a variant:
 * `oauth.connected` as one boolean or per variant, connected wherever it says nothing.
 * @example harnessOAuthConnected({ oauth: { connected: { empty: false } } }, 'empty') // false
 */
export function harnessOAuthConnected(
  entry: Pick<HarnessRegistryEntry, 'oauth'>,
  variant: HarnessVariant,
): boolean {
  const connected = entry.oauth?.connected;
  if (typeof connected === 'boolean') return connected;
  return connected?.[variant] ?? true;
}
