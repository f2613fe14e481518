import { NoRecordedResponseError, SecretAccessError } from '@platform/sdk/integration';
import { type CapabilityFetchRequest, createMemoryCapabilities } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';

const request = (overrides: Partial<CapabilityFetchRequest> = {}): CapabilityFetchRequest => ({
  url: 'https://api.acme.com/v1/items?token=secret',
  method: 'POST',
  headers: [['content-type', 'application/json']],
  body: btoa('{"a":1}'),
  ...overrides,
});

describe('fetch', () => {
  it('refuses every request by default with NoRecordedResponseError, URL redacted', async () => {
    const capabilities = createMemoryCapabilities();
    const error = await capabilities.fetch(request()).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(NoRecordedResponseError);
    const refusal = error as NoRecordedResponseError;
    expect(refusal.name).toBe('NoRecordedResponseError');
    expect(refusal.code).toBe('NO_RECORDED_RESPONSE');
    expect(refusal.method).toBe('POST');
    expect(refusal.url).toBe('https://api.acme.com/v1/items?...');
    expect(refusal.message).toBe(
      'No recorded response for POST https://api.acme.com/v1/items?...; the request was refused, not sent. Provide a fetch handler for it.',
    );
  });

  it('records every request, answered or refused, in order', async () => {
    const refusing = createMemoryCapabilities();
    const first = request();
    const second = request({ url: 'https://api.acme.com/other', method: 'GET', headers: [], body: null });
    await expect(refusing.fetch(first)).rejects.toBeInstanceOf(NoRecordedResponseError);
    await expect(refusing.fetch(second)).rejects.toBeInstanceOf(NoRecordedResponseError);
    expect(refusing.state.requests).toEqual([
      {
        url: 'https://api.acme.com/v1/items?token=secret',
        method: 'POST',
        headers: [['content-type', 'application/json']],
        body: btoa('{"a":1}'),
      },
      { url: 'https://api.acme.com/other', method: 'GET', headers: [], body: null },
    ]);
  });

  it('answers with the given handler and records what it was asked', async () => {
    const asked: string[] = [];
    const capabilities = createMemoryCapabilities({
      fetch: async (req) => {
        asked.push(`${req.method} ${req.url}`);
        return { status: 201, statusText: 'Created', headers: [['x-id', '7']], body: btoa('done') };
      },
    });
    const response = await capabilities.fetch(request({ url: 'https://api.acme.com/notes', method: 'PUT' }));
    expect(response).toEqual({
      status: 201,
      statusText: 'Created',
      headers: [['x-id', '7']],
      body: btoa('done'),
    });
    expect(asked).toEqual(['PUT https://api.acme.com/notes']);
    expect(capabilities.state.requests.map((req) => `${req.method} ${req.url}`)).toEqual([
      'PUT https://api.acme.com/notes',
    ]);
  });

  it('passes a handler failure through and still records the request', async () => {
    const capabilities = createMemoryCapabilities({
      fetch: async () => {
        throw new RangeError('far side down');
      },
    });
    await expect(capabilities.fetch(request())).rejects.toThrow(new RangeError('far side down'));
    expect(capabilities.state.requests).toHaveLength(1);
  });
});

describe('storage', () => {
  it('clones the seeded storage: changing the seed later changes nothing', async () => {
    const settings = { workspace: 'acme', tags: ['a'] };
    const seed = { account: { settings }, user: { preferences: { theme: 'dark' } } };
    const capabilities = createMemoryCapabilities({ storage: seed });
    settings.workspace = 'changed';
    settings.tags.push('b');
    seed.user.preferences.theme = 'light';
    expect(capabilities.state.storage.account.get('settings')).toEqual({ workspace: 'acme', tags: ['a'] });
    expect(capabilities.state.storage.account.get('settings')).not.toBe(settings);
    expect(await capabilities.storage.get('user', 'preferences')).toEqual({ theme: 'dark' });
  });

  it('seeds each scope separately', async () => {
    const capabilities = createMemoryCapabilities({ storage: { account: { cache: 1 }, user: { cache: 2 } } });
    expect(await capabilities.storage.get('account', 'cache')).toBe(1);
    expect(await capabilities.storage.get('user', 'cache')).toBe(2);
    expect([...capabilities.state.storage.account]).toEqual([['cache', 1]]);
    expect([...capabilities.state.storage.user]).toEqual([['cache', 2]]);
  });

  it('clones on set and on get', async () => {
    const capabilities = createMemoryCapabilities();
    const value = { n: 1, list: [1] };
    await capabilities.storage.set('account', 'settings', value);
    value.n = 2;
    value.list.push(2);
    const read = (await capabilities.storage.get('account', 'settings')) as { n: number; list: number[] };
    expect(read).toEqual({ n: 1, list: [1] });
    read.n = 3;
    expect(capabilities.state.storage.account.get('settings')).toEqual({ n: 1, list: [1] });
  });

  it('gets undefined for an unset key and deletes a set one', async () => {
    const capabilities = createMemoryCapabilities({ storage: { user: { config: { a: 1 } } } });
    expect(await capabilities.storage.get('account', 'config')).toBeUndefined();
    await capabilities.storage.delete('user', 'config');
    expect(await capabilities.storage.get('user', 'config')).toBeUndefined();
    expect(capabilities.state.storage.user.size).toBe(0);
    await expect(capabilities.storage.delete('user', 'never-set')).resolves.toBeUndefined();
  });

  it('starts empty without a seed', () => {
    const capabilities = createMemoryCapabilities();
    expect(capabilities.state.storage.account.size).toBe(0);
    expect(capabilities.state.storage.user.size).toBe(0);
    expect(capabilities.state.logs).toEqual([]);
    expect(capabilities.state.requests).toEqual([]);
  });
});

describe('secrets', () => {
  const secrets = {
    account: { A: 'account-a' },
    source: { A: 'source-a', S: 'source-s' },
    global: { A: 'global-a', S: 'global-s', G: 'global-g' },
  };

  it.each([
    ['A', 'account-a'],
    ['S', 'source-s'],
    ['G', 'global-g'],
    ['NONE', undefined],
  ])('get(%s) resolves account, source, global', async (name, expected) => {
    expect(await createMemoryCapabilities({ secrets }).secrets.get(name)).toBe(expected);
  });

  it('set writes the account tier, refuses admin-only names', async () => {
    const capabilities = createMemoryCapabilities({ secrets });
    await capabilities.secrets.set('NEW', 'n');
    await capabilities.secrets.set('A', 'a2');
    await expect(capabilities.secrets.set('S', 'x')).rejects.toBeInstanceOf(SecretAccessError);
    await expect(capabilities.secrets.set('G', 'x')).rejects.toBeInstanceOf(SecretAccessError);
    expect([...capabilities.state.secrets.account]).toEqual([
      ['A', 'a2'],
      ['NEW', 'n'],
    ]);
    expect([...capabilities.state.secrets.global]).toEqual([
      ['A', 'global-a'],
      ['S', 'global-s'],
      ['G', 'global-g'],
    ]);
  });

  it('does not share the seed objects', async () => {
    const account: Record<string, string> = { A: '1' };
    const capabilities = createMemoryCapabilities({ secrets: { account } });
    await capabilities.secrets.set('B', '2');
    expect(account).toEqual({ A: '1' });
  });
});

describe('log', () => {
  it('keeps entries in order as given', () => {
    const capabilities = createMemoryCapabilities();
    capabilities.log({ level: 'info', message: 'one' });
    capabilities.log({ level: 'error', message: 'two', fields: { n: 2 } });
    expect(capabilities.state.logs).toStrictEqual([
      { level: 'info', message: 'one' },
      { level: 'error', message: 'two', fields: { n: 2 } },
    ]);
  });
});

describe('openCall: one call as the host runs it', () => {
  it('holds storage and secret writes until commit; reads see them meanwhile', async () => {
    const memory = createMemoryCapabilities({ secrets: { global: { ADMIN_KEY: 'a' } } });
    const call = memory.openCall();
    await call.storage.set('account', 'settings', { on: true });
    await call.secrets.set('TOKEN', 't1');
    expect(await call.storage.get('account', 'settings')).toEqual({ on: true });
    expect(await call.secrets.get('TOKEN')).toBe('t1');
    expect(memory.state.storage.account.has('settings')).toBe(false);
    expect(memory.state.secrets.account.has('TOKEN')).toBe(false);
    await expect(call.secrets.set('ADMIN_KEY', 'x')).rejects.toBeInstanceOf(SecretAccessError);
    await call.commit();
    expect(memory.state.storage.account.get('settings')).toEqual({ on: true });
    expect(memory.state.secrets.account.get('TOKEN')).toBe('t1');
  });

  it('a call never committed leaves nothing; a direct write meanwhile makes a reader conflict', async () => {
    const memory = createMemoryCapabilities({ storage: { account: { n: 1 } } });
    const abandoned = memory.openCall();
    await abandoned.storage.set('account', 'n', 2);
    const reader = memory.openCall();
    expect(await reader.storage.get('account', 'n')).toBe(1);
    await memory.storage.set('account', 'n', 3);
    await reader.storage.set('account', 'n', 4);
    await expect(reader.commit()).rejects.toMatchObject({ name: 'StorageConflictError', key: 'n' });
    expect(reader.conflict?.key).toBe('n');
    expect(memory.state.storage.account.get('n')).toBe(3);
  });

  it('counts a direct edit of the state (a test seeding it) as a change', async () => {
    const memory = createMemoryCapabilities({ storage: { account: { n: 1 } } });
    const reader = memory.openCall();
    await reader.storage.get('account', 'n');
    memory.state.storage.account.set('n', 7);
    await reader.storage.set('account', 'n', 2);
    await expect(reader.commit()).rejects.toMatchObject({ name: 'StorageConflictError' });
  });
});
