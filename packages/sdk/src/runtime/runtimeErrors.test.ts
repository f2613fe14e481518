import { describe, expect, it } from 'vitest';
import {
  EgressDeniedError,
  MachineActorStorageError,
  NoRecordedResponseError,
  OAuthConnectionUnavailableError,
  SecretAccessError,
  StorageConflictError,
  StorageValidationError,
} from '../integration/errors.js';
import { createMemoryCapabilities } from './createMemoryCapabilities.js';
import { fromWireError, toWireError, withRuntimeErrors } from './runtimeErrors.js';

// What crosses the isolate bridge: JSON text, rebuilt as a plain Error with the wire's properties.
const acrossJson = (error: unknown) => {
  const wire = JSON.parse(JSON.stringify(toWireError(error))) as Record<string, string>;
  const plain = new Error(wire.message);
  Object.assign(plain, wire);
  return fromWireError(plain);
};

describe('runtime errors across a JSON boundary', () => {
  const cases: [string, Error, Record<string, unknown>][] = [
    [
      'EgressDeniedError',
      new EgressDeniedError('https://api.acme.com', 'private address refused', 'private_address'),
      { code: 'EGRESS_DENIED', origin: 'https://api.acme.com', reason: 'private_address' },
    ],
    [
      'StorageValidationError',
      new StorageValidationError('user', 'prefs', 'the value does not match', 'Pass a matching value.'),
      { code: 'STORAGE_VALIDATION_FAILED', scope: 'user', key: 'prefs', hint: 'Pass a matching value.' },
    ],
    [
      'SecretAccessError',
      new SecretAccessError('CLIENT_SECRET'),
      { code: 'SECRET_ACCESS_DENIED', secretName: 'CLIENT_SECRET' },
    ],
    ['MachineActorStorageError', new MachineActorStorageError(), { code: 'MACHINE_ACTOR_STORAGE' }],
    [
      'StorageConflictError',
      new StorageConflictError('account', 'deleted-ids'),
      { code: 'STORAGE_CONFLICT', scope: 'account', key: 'deleted-ids' },
    ],
    [
      'NoRecordedResponseError',
      new NoRecordedResponseError('GET', 'https://api.acme.com/x', 'Add a fixture.'),
      { code: 'NO_RECORDED_RESPONSE', method: 'GET', url: 'https://api.acme.com/x' },
    ],
    [
      'OAuthConnectionUnavailableError',
      new OAuthConnectionUnavailableError('exhausted'),
      { code: 'OAUTH_CONNECTION_UNAVAILABLE', state: 'exhausted' },
    ],
  ];
  for (const [name, original, properties] of cases) {
    it(`rebuilds ${name} with its class, message, code and properties`, () => {
      const rebuilt = acrossJson(original) as Error;
      expect(rebuilt).not.toBe(original);
      expect(rebuilt).toBeInstanceOf(original.constructor);
      expect(rebuilt.name).toBe(name);
      expect(rebuilt.message).toBe(original.message);
      expect(rebuilt).toMatchObject(properties);
    });
  }

  it('rebuilds a TypeError (a network failure of the host fetch) as a TypeError', () => {
    const original = new TypeError('the request to https://api.acme.com/ failed: ECONNRESET');
    const rebuilt = acrossJson(original) as Error;
    expect(rebuilt).not.toBe(original);
    expect(rebuilt).toBeInstanceOf(TypeError);
    expect(rebuilt.message).toBe(original.message);
    expect(fromWireError(original)).toBe(original);
  });

  it('keeps the reason of an egress refusal undefined when there was none', () => {
    const rebuilt = acrossJson(new EgressDeniedError('https://b.test', 'not in egress')) as EgressDeniedError;
    expect(rebuilt.reason).toBeUndefined();
  });

  it('leaves other errors and non-errors as they are', () => {
    const other = new TypeError('boom');
    expect(fromWireError(other)).toBe(other);
    expect(fromWireError('text')).toBe('text');
    expect(toWireError('text')).toEqual({ name: 'Error', message: 'text' });
  });

  it('rebuilds what capabilities throw, and passes values through', async () => {
    const memory = createMemoryCapabilities();
    const thrown = Object.assign(new Error('refused'), {
      name: 'SecretAccessError',
      code: 'SECRET_ACCESS_DENIED',
      secretName: 'X',
    });
    const wrapped = withRuntimeErrors({
      ...memory,
      secrets: { get: memory.secrets.get, set: () => Promise.reject(thrown) },
    });
    await wrapped.storage.set('account', 'k', { a: 1 });
    expect(await wrapped.storage.get('account', 'k')).toEqual({ a: 1 });
    const error = await wrapped.secrets.set('X', 'v').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SecretAccessError);
    expect(error).toMatchObject({ code: 'SECRET_ACCESS_DENIED', secretName: 'X', message: 'refused' });
  });

  it("rebuilds a checkpoint's conflict as StorageConflictError", async () => {
    const memory = createMemoryCapabilities();
    // As it arrives over the bridge: a plain Error carrying the wire's name and properties.
    const thrown = Object.assign(new Error('changed meanwhile'), {
      name: 'StorageConflictError',
      code: 'STORAGE_CONFLICT',
      scope: 'user',
      key: 'prefs',
    });
    const wrapped = withRuntimeErrors({ ...memory, checkpoint: () => Promise.reject(thrown) });
    const error = await wrapped.checkpoint().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageConflictError);
    expect(error).toMatchObject({
      code: 'STORAGE_CONFLICT',
      scope: 'user',
      key: 'prefs',
      message: 'changed meanwhile',
    });
    await expect(withRuntimeErrors(memory).checkpoint()).resolves.toBeUndefined();
  });
});
