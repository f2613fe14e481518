import {
  EgressDeniedError,
  MachineActorStorageError,
  StorageValidationError,
} from '@platform/sdk/integration';
import type { EgressFetch } from '@platform/sdk/server';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/Db.js';
import type { SecretBox } from '../secrets/SecretBox.js';
import { createHostCapabilities } from './createHostCapabilities.js';

function capabilitiesOver(fetch: EgressFetch) {
  const refused: EgressDeniedError[] = [];
  const { capabilities } = createHostCapabilities({
    db: {} as Db,
    slug: 'acme',
    accountId: 'acct-1',
    sourceId: 'src-1',
    userId: undefined,
    egress: ['https://api.acme.test'],
    storageKeys: { account: ['settings'], user: ['preferences'] },
    secretBox: {} as SecretBox,
    fetch,
    log: () => {},
    onPrivateAddress: (error) => refused.push(error),
  });
  const request = { url: 'https://api.acme.test/x', method: 'GET', headers: [], body: null };
  return { call: () => capabilities.fetch(request), refused, capabilities };
}

describe('createHostCapabilities: fetch refusals', () => {
  it('reports a private-address refusal and still throws the same error to the guest', async () => {
    const denied = new EgressDeniedError('https://api.acme.test', 'refused: 10.0.0.1', 'private-address');
    const { call, refused } = capabilitiesOver(async () => {
      throw denied;
    });
    await expect(call()).rejects.toBe(denied);
    expect(refused).toEqual([denied]);
  });

  it('does not report other refusals or failures', async () => {
    for (const error of [
      new EgressDeniedError('https://evil.test', 'not in egress', 'egress'),
      new Error('the request failed'),
    ]) {
      const { call, refused } = capabilitiesOver(async () => {
        throw error;
      });
      await expect(call()).rejects.toBe(error);
      expect(refused).toEqual([]);
    }
  });
});

describe('createHostCapabilities: storage from partner code is checked again', () => {
  const { capabilities } = capabilitiesOver(async () => {
    throw new Error('no fetch here');
  });

  it('refuses a key the version does not declare, as the guest engine does', async () => {
    for (const attempt of [
      () => capabilities.storage.get('account', 'secrets-of-others'),
      () => capabilities.storage.set('account', 'preferences', 1),
      () => capabilities.storage.delete('account', '../settings'),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StorageValidationError);
      expect(error).toMatchObject({ code: 'STORAGE_VALIDATION_FAILED', scope: 'account' });
      expect((error as Error).message).toMatch(/is not declared\. Declare ".*" under storage\.account/);
    }
  });

  it('refuses a scope other than account and user', async () => {
    await expect(capabilities.storage.set('global' as 'account', 'settings', 1)).rejects.toThrow(
      'storage scope must be "account" or "user"; received "global"',
    );
  });

  it('refuses user storage to a machine actor with the sdk error', async () => {
    await expect(capabilities.storage.get('user', 'preferences')).rejects.toBeInstanceOf(
      MachineActorStorageError,
    );
  });
});
