/** A storage route request, once checked: the scope and the declared keys to read. */
export interface StorageRouteQuery {
  readonly scope: 'account' | 'user';
  readonly keys: readonly string[];
}

/**
 * The storage route's one rule, for the host and the harness alike: `scope` is `account`
 * (default) or `user`, `keys` a comma-separated list of at least one key, every one declared under
 * `storage.<scope>`. A refusal is the `invalid_input` message naming the problem and the fix.
 * @example parseStorageRouteQuery({ scope: undefined, keys: 'settings' }, (scope) => ['settings'])
 */
export function parseStorageRouteQuery(
  query: { readonly scope: string | undefined; readonly keys: string | undefined },
  declaredKeys: (scope: 'account' | 'user') => readonly string[],
): { ok: true; query: StorageRouteQuery } | { ok: false; message: string } {
  const scope = query.scope ?? 'account';
  if (scope !== 'account' && scope !== 'user')
    return { ok: false, message: `scope must be "account" or "user", not "${scope}".` };
  const keys = (query.keys ?? '').split(',').filter((key) => key !== '');
  if (keys.length === 0)
    return { ok: false, message: 'Add keys=<key>[,<key>...] naming the storage keys to read.' };
  const declared = declaredKeys(scope);
  const undeclared = keys.filter((key) => !declared.includes(key));
  if (undeclared.length > 0) {
    return {
      ok: false,
      message: `Storage key${undeclared.length === 1 ? '' : 's'} ${undeclared.map((key) => `"${key}"`).join(', ')} not declared under storage.${scope}; declared: ${declared.join(', ') || 'none'}.`,
    };
  }
  return { ok: true, query: { scope, keys } };
}
