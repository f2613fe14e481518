/** Data types allowed under `storage.account`. */
export const ACCOUNT_STORAGE_DATA_TYPES = [
  'activation',
  'settings',
  'metrics_summary',
  'sync_state',
  'cache',
] as const;

/** Data types allowed under `storage.user`. */
export const USER_STORAGE_DATA_TYPES = ['config', 'preferences', 'cache'] as const;

export type StorageScopeName = 'account' | 'user';

export type StorageKeyCheck =
  | { readonly ok: true; readonly dataType: string }
  | { readonly ok: false; readonly kind: 'malformed' | 'data-type'; readonly message: string };

const SEGMENT = /^[a-z0-9_-]+$/;

/** The data types a scope allows. */
export function storageDataTypes(scope: StorageScopeName): readonly string[] {
  return scope === 'account' ? ACCOUNT_STORAGE_DATA_TYPES : USER_STORAGE_DATA_TYPES;
}

/**
 * Checks a storage key: `<dataType>` or `<dataType>/<subtype>`, lowercase `[a-z0-9_-]`, data type
 * allowed for the scope, `secret` reserved.
 * @example checkStorageKey('account', 'cache/notes') // { ok: true, dataType: 'cache' }
 */
export function checkStorageKey(scope: StorageScopeName, key: string): StorageKeyCheck {
  const segments = key.split('/');
  if (segments.length > 2) {
    return {
      ok: false,
      kind: 'malformed',
      message: `storage key "${key}" has more than one "/"; use "<dataType>" or "<dataType>/<subtype>"`,
    };
  }
  if (segments.some((segment) => segment === '')) {
    return {
      ok: false,
      kind: 'malformed',
      message: `storage key "${key}" has an empty segment; use "<dataType>" or "<dataType>/<subtype>"`,
    };
  }
  if (!segments.every((segment) => SEGMENT.test(segment))) {
    return {
      ok: false,
      kind: 'malformed',
      message: `storage key "${key}" has illegal characters; use lowercase letters, digits, "_" and "-" (dots are not allowed)`,
    };
  }
  const dataType = segments[0] ?? '';
  if (dataType === 'secret') {
    return {
      ok: false,
      kind: 'data-type',
      message: `storage key "${key}": "secret" is reserved; keep secrets in ctx.secrets instead`,
    };
  }
  const allowed = storageDataTypes(scope);
  if (!allowed.includes(dataType)) {
    return {
      ok: false,
      kind: 'data-type',
      message: `storage key "${key}": data type "${dataType}" is not allowed under storage.${scope}; use one of ${allowed.join(', ')}`,
    };
  }
  return { ok: true, dataType };
}
