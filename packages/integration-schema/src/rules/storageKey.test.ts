import {
  ACCOUNT_STORAGE_DATA_TYPES,
  checkStorageKey,
  type StorageScopeName,
  storageDataTypes,
  USER_STORAGE_DATA_TYPES,
} from '@platform/integration-schema';
import { describe, expect, it } from 'vitest';

const TWO_SLASHES = 'has more than one "/"; use "<dataType>" or "<dataType>/<subtype>"';
const EMPTY = 'has an empty segment; use "<dataType>" or "<dataType>/<subtype>"';
const ILLEGAL = 'has illegal characters; use lowercase letters, digits, "_" and "-" (dots are not allowed)';
const ACCOUNT_TYPES = 'activation, settings, metrics_summary, sync_state, cache';
const USER_TYPES = 'config, preferences, cache';

describe('storage data types', () => {
  it('lists the spec data types per scope', () => {
    expect(ACCOUNT_STORAGE_DATA_TYPES).toEqual([
      'activation',
      'settings',
      'metrics_summary',
      'sync_state',
      'cache',
    ]);
    expect(USER_STORAGE_DATA_TYPES).toEqual(['config', 'preferences', 'cache']);
    expect(storageDataTypes('account')).toEqual(ACCOUNT_STORAGE_DATA_TYPES);
    expect(storageDataTypes('user')).toEqual(USER_STORAGE_DATA_TYPES);
  });
});

describe('checkStorageKey accepts', () => {
  it.each<[StorageScopeName, string, string]>([
    ['account', 'activation', 'activation'],
    ['account', 'settings', 'settings'],
    ['account', 'metrics_summary', 'metrics_summary'],
    ['account', 'sync_state', 'sync_state'],
    ['account', 'cache', 'cache'],
    ['account', 'cache/notes', 'cache'],
    ['account', 'sync_state/notes-v2', 'sync_state'],
    ['account', 'settings/0', 'settings'],
    ['account', 'cache/-_-', 'cache'],
    ['user', 'config', 'config'],
    ['user', 'preferences', 'preferences'],
    ['user', 'cache', 'cache'],
    ['user', 'preferences/theme_2', 'preferences'],
  ])('%s %j (data type %s)', (scope, key, dataType) => {
    expect(checkStorageKey(scope, key)).toEqual({ ok: true, dataType });
  });
});

describe('checkStorageKey refuses malformed keys', () => {
  it.each<[StorageScopeName, string, string]>([
    ['account', 'cache/notes/today', TWO_SLASHES],
    ['account', 'cache//notes', TWO_SLASHES],
    ['user', 'a/b/c/d', TWO_SLASHES],
    ['account', '//', TWO_SLASHES],
    ['account', 'cache/', EMPTY],
    ['account', '/cache', EMPTY],
    ['account', '/', EMPTY],
    ['user', '', EMPTY],
    ['account', 'cache.notes', ILLEGAL],
    ['account', 'cache/notes.v2', ILLEGAL],
    ['account', 'Cache', ILLEGAL],
    ['account', 'cache/Notes', ILLEGAL],
    ['account', 'cache/notes!', ILLEGAL],
    ['account', 'cache notes', ILLEGAL],
    ['user', 'cache\\notes', ILLEGAL],
    ['user', 'préférences', ILLEGAL],
    ['account', 'SECRET', ILLEGAL],
  ])('%s %j', (scope, key, message) => {
    expect(checkStorageKey(scope, key)).toEqual({
      ok: false,
      kind: 'malformed',
      message: `storage key "${key}" ${message}`,
    });
  });
});

describe('checkStorageKey refuses data types', () => {
  it.each<[StorageScopeName, string, string, string]>([
    ['user', 'settings', 'settings', USER_TYPES],
    ['user', 'activation', 'activation', USER_TYPES],
    ['user', 'metrics_summary/daily', 'metrics_summary', USER_TYPES],
    ['user', 'sync_state', 'sync_state', USER_TYPES],
    ['account', 'preferences', 'preferences', ACCOUNT_TYPES],
    ['account', 'config/theme', 'config', ACCOUNT_TYPES],
    ['account', 'notes', 'notes', ACCOUNT_TYPES],
    ['account', 'caches', 'caches', ACCOUNT_TYPES],
    ['account', 'constructor', 'constructor', ACCOUNT_TYPES],
    ['user', '__proto__', '__proto__', USER_TYPES],
  ])('%s %j (data type %j)', (scope, key, dataType, allowed) => {
    expect(checkStorageKey(scope, key)).toEqual({
      ok: false,
      kind: 'data-type',
      message: `storage key "${key}": data type "${dataType}" is not allowed under storage.${scope}; use one of ${allowed}`,
    });
  });

  it.each<[StorageScopeName, string]>([
    ['account', 'secret'],
    ['user', 'secret'],
    ['account', 'secret/api_key'],
    ['user', 'secret/token'],
  ])('reserves secret: %s %j', (scope, key) => {
    expect(checkStorageKey(scope, key)).toEqual({
      ok: false,
      kind: 'data-type',
      message: `storage key "${key}": "secret" is reserved; keep secrets in ctx.secrets instead`,
    });
  });

  it('allows "secret" as a subtype', () => {
    expect(checkStorageKey('account', 'cache/secret')).toEqual({ ok: true, dataType: 'cache' });
  });
});
