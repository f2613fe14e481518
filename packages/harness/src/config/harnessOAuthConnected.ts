import type { OAuthStatusResponse } from '@platform/wire';
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

/**
 * The `data` of `GET oauth/status` in fixtures mode, in the host's wire shape: a fixture
 * connection is connected since `now` (the harness has no connection record to date it).
 * @example harnessOAuthStatus({}, 'default', new Date(0)) // { connected: true, connectedAt: '1970-01-01T00:00:00.000Z' }
 */
export function harnessOAuthStatus(
  entry: Pick<HarnessRegistryEntry, 'oauth'>,
  variant: HarnessVariant,
  now: Date,
): OAuthStatusResponse {
  return harnessOAuthConnected(entry, variant)
    ? { connected: true, connectedAt: now.toISOString() }
    : { connected: false };
}
