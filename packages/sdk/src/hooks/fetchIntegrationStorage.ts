import { type FetchFunction, getRoute } from './_requestRoute.js';
import { integrationRoutePath } from './_routePath.js';
import { IntegrationRequestError } from './IntegrationActionError.js';
import type { AccountOptions } from './integrationActionUrl.js';

// The spec's storage key grammar; checked here because the wire joins keys with commas.
const STORAGE_KEY = /^[a-z0-9_-]+(\/[a-z0-9_-]+)?$/;

/** `fetchIntegrationStorage()`'s options. */
export interface FetchIntegrationStorageOptions<K extends string> extends AccountOptions {
  /** Declared storage keys to read, e.g. `['settings', 'cache/notes']`. */
  readonly keys: readonly K[];
  /** Default: the route's default (`account`). */
  readonly scope?: 'account' | 'user';
  /** Default `globalThis.fetch`; in a component pass `useIntegrationFetch()`. */
  readonly fetch?: FetchFunction;
  readonly signal?: AbortSignal;
}

/**
 * Reads declared storage keys through the storage route, as an object indexed by key (`null` for a
 * key with no value). Rejects with an `IntegrationRequestError` (`invalid_input` for an undeclared
 * or malformed key, `network_error`, `invalid_response`, or the route's code).
 * @example
 * const { settings } = await fetchIntegrationStorage('acme-notes', { accountId, keys: ['settings'], fetch });
 */
export async function fetchIntegrationStorage<const K extends string>(
  slug: string,
  options: FetchIntegrationStorageOptions<K>,
): Promise<{ [P in K]: unknown }> {
  const what = `The storage route of "${slug}"`;
  const malformed = options.keys.filter((key) => !STORAGE_KEY.test(key));
  if (malformed.length > 0) {
    throw new IntegrationRequestError({
      code: 'invalid_input',
      status: 0,
      message: `${what} was not called: ${malformed.map((key) => JSON.stringify(key)).join(', ')} ${malformed.length === 1 ? 'is not a storage key' : 'are not storage keys'}; a key is lowercase [a-z0-9_-] with at most one "/", e.g. "settings" or "cache/notes".`,
    });
  }
  const keys = [...new Set(options.keys)];
  if (keys.length === 0) return {} as { [P in K]: unknown };

  const query = new URLSearchParams({ accountId: options.accountId, keys: keys.join(',') });
  if (options.scope !== undefined) query.set('scope', options.scope);
  const result = await getRoute(`${integrationRoutePath(slug, 'storage')}?${query}`, options, what);
  if (!result.ok) throw new IntegrationRequestError(result.error);
  const data = result.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new IntegrationRequestError({
      code: 'invalid_response',
      status: result.status,
      message: `${what} answered HTTP ${result.status} with data that is not an object of keys; expected { ok: true, data: { <key>: value | null } }.`,
    });
  }
  const values = data as Record<string, unknown>;
  return Object.fromEntries(
    keys.map((key) => [key, Object.hasOwn(values, key) ? (values[key] ?? null) : null]),
  ) as { [P in K]: unknown };
}
