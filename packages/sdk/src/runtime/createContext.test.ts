import type { StandardSchemaV1 } from '@platform/integration-schema';
import {
  type Actor,
  defineIntegration,
  MachineActorStorageError,
  SecretAccessError,
  StorageValidationError,
} from '@platform/sdk/integration';
import {
  createContext,
  createMemoryCapabilities,
  type MemoryCapabilitiesOptions,
} from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

interface Flavor {
  readonly name: string;
  readonly settings: StandardSchemaV1;
  readonly cursor: StandardSchemaV1;
  readonly length: StandardSchemaV1;
  readonly summary: StandardSchemaV1;
  readonly raw: StandardSchemaV1;
  readonly when: StandardSchemaV1;
  readonly preferences: StandardSchemaV1;
  /** The library's message for a number where a string is expected. */
  readonly stringGotNumber: string;
  /** The library's message for a missing required string. */
  readonly stringMissing: string;
  /** The library's message for a string where a Date is expected. */
  readonly dateGotString: string;
}

const flavors: readonly Flavor[] = [
  {
    name: 'zod 4',
    settings: z.object({ workspace: z.string(), count: z.number().int().optional() }),
    cursor: z.string(),
    length: z.string().transform((text) => text.length),
    summary: z.object({ label: z.string(), total: z.number().default(0) }),
    raw: z.unknown(),
    when: z.object({ at: z.date() }),
    preferences: z.object({ theme: z.enum(['light', 'dark']) }),
    stringGotNumber: 'Invalid input: expected string, received number',
    stringMissing: 'Invalid input: expected string, received undefined',
    dateGotString: 'Invalid input: expected date, received string',
  },
  {
    name: 'zod 3',
    settings: z3.object({ workspace: z3.string(), count: z3.number().int().optional() }),
    cursor: z3.string(),
    length: z3.string().transform((text) => text.length),
    summary: z3.object({ label: z3.string(), total: z3.number().default(0) }),
    raw: z3.unknown(),
    when: z3.object({ at: z3.date() }),
    preferences: z3.object({ theme: z3.enum(['light', 'dark']) }),
    stringGotNumber: 'Expected string, received number',
    stringMissing: 'Required',
    dateGotString: 'Expected date, received string',
  },
];

const USER: Actor = { kind: 'user', userId: 'user-1', accountId: 'account-1' };
const MACHINE: Actor = { kind: 'machine', accountId: 'account-1' };

function definitionFor(flavor: Flavor) {
  return defineIntegration({
    slug: 'acme-notes',
    storage: {
      account: {
        settings: flavor.settings,
        'sync_state/cursor': flavor.cursor,
        'cache/length': flavor.length,
        metrics_summary: flavor.summary,
        'cache/raw': flavor.raw,
        'cache/when': flavor.when,
      },
      user: { preferences: flavor.preferences, 'cache/draft': flavor.cursor },
    },
  });
}

function setup(flavor: Flavor, options: MemoryCapabilitiesOptions = {}, actor: Actor = USER) {
  const capabilities = createMemoryCapabilities(options);
  const ctx = createContext({ definition: definitionFor(flavor), capabilities, actor });
  return { ctx, capabilities };
}

async function storageError(promise: Promise<unknown>): Promise<StorageValidationError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StorageValidationError);
  return error as StorageValidationError;
}

describe.each(flavors)('ctx.storage with $name schemas', (flavor) => {
  it('sets, gets and deletes a declared account key', async () => {
    const { ctx, capabilities } = setup(flavor);
    expect(await ctx.storage.account.get('settings')).toBeUndefined();
    await ctx.storage.account.set('settings', { workspace: 'acme', count: 3 });
    expect(capabilities.state.storage.account.get('settings')).toEqual({ workspace: 'acme', count: 3 });
    expect(await ctx.storage.account.get('settings')).toEqual({ workspace: 'acme', count: 3 });
    await ctx.storage.account.delete('settings');
    expect(capabilities.state.storage.account.has('settings')).toBe(false);
    expect(await ctx.storage.account.get('settings')).toBeUndefined();
    expect(capabilities.state.storage.user.size).toBe(0);
  });

  it('sets, gets and deletes a declared user key, apart from the account scope', async () => {
    const { ctx, capabilities } = setup(flavor);
    await ctx.storage.user.set('preferences', { theme: 'dark' });
    await ctx.storage.user.set('cache/draft', 'half a note');
    expect([...capabilities.state.storage.user]).toEqual([
      ['preferences', { theme: 'dark' }],
      ['cache/draft', 'half a note'],
    ]);
    expect(capabilities.state.storage.account.size).toBe(0);
    expect(await ctx.storage.user.get('preferences')).toEqual({ theme: 'dark' });
    await ctx.storage.user.delete('preferences');
    expect([...capabilities.state.storage.user.keys()]).toEqual(['cache/draft']);
    expect(await ctx.storage.user.get('preferences')).toBeUndefined();
  });

  it('deleting a declared key that was never set is a no-op', async () => {
    const { ctx, capabilities } = setup(flavor);
    await expect(ctx.storage.account.delete('sync_state/cursor')).resolves.toBeUndefined();
    expect(capabilities.state.storage.account.size).toBe(0);
  });

  it('stores a copy: neither the stored value nor what get returns is the object passed in', async () => {
    const { ctx, capabilities } = setup(flavor);
    const value = { workspace: 'acme', count: 1 };
    await ctx.storage.account.set('settings', value);
    const stored = capabilities.state.storage.account.get('settings');
    const read = await ctx.storage.account.get('settings');
    expect(stored).not.toBe(value);
    expect(read).not.toBe(value);
    expect(read).not.toBe(stored);
    value.workspace = 'changed after set';
    expect(capabilities.state.storage.account.get('settings')).toEqual({ workspace: 'acme', count: 1 });
    (read as { workspace: string }).workspace = 'changed after get';
    expect(await ctx.storage.account.get('settings')).toEqual({ workspace: 'acme', count: 1 });
  });

  it('stores values as JSON keeps them', async () => {
    const { ctx, capabilities } = setup(flavor);
    await ctx.storage.account.set('cache/raw', {
      dropped: undefined,
      list: [1, undefined, 'x'],
      date: new Date(0),
      nested: { ok: true, nil: null },
    });
    expect(capabilities.state.storage.account.get('cache/raw')).toStrictEqual({
      list: [1, null, 'x'],
      date: '1970-01-01T00:00:00.000Z',
      nested: { ok: true, nil: null },
    });
    expect(await ctx.storage.account.get('cache/raw')).toStrictEqual({
      list: [1, null, 'x'],
      date: '1970-01-01T00:00:00.000Z',
      nested: { ok: true, nil: null },
    });
  });

  it.each(['get', 'set', 'delete'] as const)('refuses an undeclared key on %s', async (operation) => {
    const { ctx, capabilities } = setup(flavor, { storage: { account: { 'cache/other': 'seeded' } } });
    const scope = ctx.storage.account;
    const call =
      operation === 'get'
        ? scope.get('cache/other')
        : operation === 'set'
          ? scope.set('cache/other', 'value')
          : scope.delete('cache/other');
    const error = await storageError(call);
    expect(error.code).toBe('STORAGE_VALIDATION_FAILED');
    expect(error.name).toBe('StorageValidationError');
    expect(error.scope).toBe('account');
    expect(error.key).toBe('cache/other');
    expect(error.hint).toBe('Declare "cache/other" under storage.account in the definition before using it.');
    expect(error.message).toBe(
      'ctx.storage.account "cache/other": this key is not declared. Declare "cache/other" under storage.account in the definition before using it.',
    );
    expect([...capabilities.state.storage.account]).toEqual([['cache/other', 'seeded']]);
  });

  it('refuses on account a key declared only under user, and the reverse', async () => {
    const { ctx, capabilities } = setup(flavor);
    const onAccount = await storageError(ctx.storage.account.set('preferences', { theme: 'dark' }));
    expect(onAccount.scope).toBe('account');
    expect(onAccount.key).toBe('preferences');
    expect(onAccount.hint).toBe(
      'Declare "preferences" under storage.account in the definition before using it.',
    );
    const onUser = await storageError(ctx.storage.user.get('settings'));
    expect(onUser.scope).toBe('user');
    expect(onUser.key).toBe('settings');
    expect(onUser.hint).toBe('Declare "settings" under storage.user in the definition before using it.');
    expect(capabilities.state.storage.account.size).toBe(0);
    expect(capabilities.state.storage.user.size).toBe(0);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'refuses the inherited property name "%s" as a key',
    async (key) => {
      const { ctx, capabilities } = setup(flavor);
      const error = await storageError(ctx.storage.account.set(key, 'x'));
      expect(error.key).toBe(key);
      expect(error.message).toBe(
        `ctx.storage.account "${key}": this key is not declared. Declare "${key}" under storage.account in the definition before using it.`,
      );
      expect(capabilities.state.storage.account.size).toBe(0);
    },
  );

  it('refuses every key when the definition declares no storage', async () => {
    const capabilities = createMemoryCapabilities();
    const ctx = createContext({ definition: { slug: 'acme-bare' }, capabilities, actor: USER });
    const account = await storageError(ctx.storage.account.get('settings'));
    expect(account.message).toBe(
      'ctx.storage.account "settings": this key is not declared. Declare "settings" under storage.account in the definition before using it.',
    );
    const user = await storageError(ctx.storage.user.set('preferences', {}));
    expect(user.scope).toBe('user');
  });

  it('refuses a write failing the schema and stores nothing', async () => {
    const { ctx, capabilities } = setup(flavor);
    const error = await storageError(ctx.storage.account.set('settings', { workspace: 42 }));
    expect(error.code).toBe('STORAGE_VALIDATION_FAILED');
    expect(error.scope).toBe('account');
    expect(error.key).toBe('settings');
    expect(error.hint).toBe('Pass a value that matches the schema declared for this key.');
    expect(error.message).toBe(
      `ctx.storage.account "settings": the value does not match the key's schema (workspace: ${flavor.stringGotNumber}). Pass a value that matches the schema declared for this key.`,
    );
    expect(capabilities.state.storage.account.has('settings')).toBe(false);
  });

  it('a failed write leaves the previous value in place', async () => {
    const { ctx, capabilities } = setup(flavor);
    await ctx.storage.user.set('preferences', { theme: 'light' });
    const error = await storageError(ctx.storage.user.set('preferences', { theme: 'neon' }));
    expect(error.scope).toBe('user');
    expect(error.message).toMatch(
      /^ctx\.storage\.user "preferences": the value does not match the key's schema \(theme: /,
    );
    expect(capabilities.state.storage.user.get('preferences')).toEqual({ theme: 'light' });
  });

  it('refuses a read of stored data that no longer matches the schema', async () => {
    const { ctx } = setup(flavor, { storage: { account: { settings: { count: 2 } } } });
    const error = await storageError(ctx.storage.account.get('settings'));
    expect(error.code).toBe('STORAGE_VALIDATION_FAILED');
    expect(error.scope).toBe('account');
    expect(error.key).toBe('settings');
    expect(error.hint).toBe(
      'Widen the schema with a union, make new fields optional, or write the data under a new key.',
    );
    expect(error.message).toBe(
      `ctx.storage.account "settings": stored data no longer matches the key's schema (workspace: ${flavor.stringMissing}). Widen the schema with a union, make new fields optional, or write the data under a new key.`,
    );
  });

  it('refuses a read of seeded user data that no longer matches', async () => {
    const { ctx } = setup(flavor, { storage: { user: { preferences: { theme: 'sepia' } } } });
    const error = await storageError(ctx.storage.user.get('preferences'));
    expect(error.scope).toBe('user');
    expect(error.message).toMatch(
      /^ctx\.storage\.user "preferences": stored data no longer matches the key's schema \(theme: /,
    );
  });

  it('refuses a BigInt and stores nothing', async () => {
    const { ctx, capabilities } = setup(flavor);
    const error = await storageError(ctx.storage.account.set('cache/raw', { big: 10n }));
    expect(error.key).toBe('cache/raw');
    expect(error.message).toBe(
      'ctx.storage.account "cache/raw": the value cannot be stored as JSON (Do not know how to serialize a BigInt). Store plain JSON data: objects, arrays, strings, numbers, booleans and null.',
    );
    expect(error.hint).toBe('Store plain JSON data: objects, arrays, strings, numbers, booleans and null.');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(capabilities.state.storage.account.has('cache/raw')).toBe(false);
  });

  it('refuses a cycle and stores nothing', async () => {
    const { ctx, capabilities } = setup(flavor);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const error = await storageError(ctx.storage.account.set('cache/raw', cyclic));
    expect(error.message).toMatch(
      /^ctx\.storage\.account "cache\/raw": the value cannot be stored as JSON \(Converting circular structure to JSON/,
    );
    expect(capabilities.state.storage.account.has('cache/raw')).toBe(false);
  });

  it('refuses undefined (and a function) and stores nothing', async () => {
    const { ctx, capabilities } = setup(flavor, { storage: { account: { 'cache/raw': 'before' } } });
    const error = await storageError(ctx.storage.account.set('cache/raw', undefined));
    expect(error.message).toBe(
      'ctx.storage.account "cache/raw": the value cannot be stored as JSON. Store plain JSON data; use delete() to remove a key.',
    );
    expect(error.hint).toBe('Store plain JSON data; use delete() to remove a key.');
    const fn = await storageError(ctx.storage.account.set('cache/raw', () => 1));
    expect(fn.hint).toBe('Store plain JSON data; use delete() to remove a key.');
    expect(capabilities.state.storage.account.get('cache/raw')).toBe('before');
  });

  it('get returns the output of a transforming schema', async () => {
    const { ctx, capabilities } = setup(flavor);
    await ctx.storage.account.set('cache/length', 'abcd');
    expect(capabilities.state.storage.account.get('cache/length')).toBe('abcd');
    expect(await ctx.storage.account.get('cache/length')).toBe(4);
  });

  it('get fills in a schema default', async () => {
    const { ctx, capabilities } = setup(flavor);
    await ctx.storage.account.set('metrics_summary', { label: 'week' });
    expect(capabilities.state.storage.account.get('metrics_summary')).toStrictEqual({ label: 'week' });
    expect(await ctx.storage.account.get('metrics_summary')).toStrictEqual({ label: 'week', total: 0 });
  });

  it('refuses at write a Date that JSON would turn into a string the schema then rejects', async () => {
    const { ctx, capabilities } = setup(flavor);
    const error = await storageError(ctx.storage.account.set('cache/when', { at: new Date(0) }));
    expect(error.code).toBe('STORAGE_VALIDATION_FAILED');
    expect(error.key).toBe('cache/when');
    expect(error.hint).toBe('Store JSON-friendly values, for example an ISO string instead of a Date.');
    expect(error.message).toBe(
      `ctx.storage.account "cache/when": the value changes when stored as JSON and then no longer matches the key's schema (at: ${flavor.dateGotString}). Store JSON-friendly values, for example an ISO string instead of a Date.`,
    );
    expect(capabilities.state.storage.account.has('cache/when')).toBe(false);
  });
});

describe('ctx.storage and the actor', () => {
  const flavor = flavors[0]!;

  it('throws MachineActorStorageError when a machine actor touches ctx.storage.user', () => {
    const { ctx } = setup(flavor, {}, MACHINE);
    let thrown: unknown;
    try {
      void ctx.storage.user;
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MachineActorStorageError);
    const error = thrown as MachineActorStorageError;
    expect(error.code).toBe('MACHINE_ACTOR_STORAGE');
    expect(error.name).toBe('MachineActorStorageError');
    expect(error.message).toBe(
      'ctx.storage.user is unavailable to machine actors (webhooks and schedules run without a user); use ctx.storage.account',
    );
  });

  it('lets a machine actor use ctx.storage.account', async () => {
    const { ctx, capabilities } = setup(flavor, {}, MACHINE);
    await ctx.storage.account.set('sync_state/cursor', 'c-42');
    expect(await ctx.storage.account.get('sync_state/cursor')).toBe('c-42');
    expect(capabilities.state.storage.account.get('sync_state/cursor')).toBe('c-42');
  });

  it('lets a user actor use ctx.storage.user', async () => {
    const { ctx, capabilities } = setup(flavor, {}, USER);
    await ctx.storage.user.set('cache/draft', 'draft');
    expect(await ctx.storage.user.get('cache/draft')).toBe('draft');
    expect(capabilities.state.storage.user.get('cache/draft')).toBe('draft');
  });
});

describe('ctx.secrets', () => {
  const secrets = {
    account: { SHARED: 'account-shared', BOTH: 'account-both', OWN: 'account-own' },
    source: { SHARED: 'source-shared', SOURCE_ONLY: 'source-only', SOURCE_GLOBAL: 'source-sg' },
    global: {
      SHARED: 'global-shared',
      GLOBAL_ONLY: 'global-only',
      BOTH: 'global-both',
      SOURCE_GLOBAL: 'global-sg',
    },
  };
  const setupSecrets = () => {
    const capabilities = createMemoryCapabilities({ secrets });
    const ctx = createContext({ definition: { slug: 'acme-notes' }, capabilities, actor: USER });
    return { ctx, capabilities };
  };

  it.each([
    ['SHARED', 'account-shared'],
    ['OWN', 'account-own'],
    ['SOURCE_ONLY', 'source-only'],
    ['SOURCE_GLOBAL', 'source-sg'],
    ['GLOBAL_ONLY', 'global-only'],
    ['MISSING', undefined],
  ])('get(%s) resolves account, then source, then global', async (name, expected) => {
    const { ctx } = setupSecrets();
    expect(await ctx.secrets.get(name)).toBe(expected);
  });

  it('set writes a new name to the account tier', async () => {
    const { ctx, capabilities } = setupSecrets();
    await ctx.secrets.set('ACME_TOKEN', 't-1');
    expect(capabilities.state.secrets.account.get('ACME_TOKEN')).toBe('t-1');
    expect(capabilities.state.secrets.source.has('ACME_TOKEN')).toBe(false);
    expect(capabilities.state.secrets.global.has('ACME_TOKEN')).toBe(false);
    expect(await ctx.secrets.get('ACME_TOKEN')).toBe('t-1');
  });

  it.each(['SOURCE_ONLY', 'GLOBAL_ONLY', 'SOURCE_GLOBAL'])(
    'set on %s, which exists only in admin tiers, is refused and writes nothing',
    async (name) => {
      const { ctx, capabilities } = setupSecrets();
      const before = await ctx.secrets.get(name);
      const error = await ctx.secrets.set(name, 'overwritten').then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(SecretAccessError);
      expect((error as SecretAccessError).code).toBe('SECRET_ACCESS_DENIED');
      expect((error as SecretAccessError).secretName).toBe(name);
      expect((error as SecretAccessError).message).toBe(
        `ctx.secrets.set("${name}") refused: "${name}" is an admin-issued secret; integrations may only write account-tier secrets, so store under another name`,
      );
      expect(capabilities.state.secrets.account.has(name)).toBe(false);
      expect(await ctx.secrets.get(name)).toBe(before);
    },
  );

  it('set on a name in the account and global tiers is allowed; the account tier wins afterwards', async () => {
    const { ctx, capabilities } = setupSecrets();
    await ctx.secrets.set('BOTH', 'rotated');
    expect(capabilities.state.secrets.account.get('BOTH')).toBe('rotated');
    expect(capabilities.state.secrets.global.get('BOTH')).toBe('global-both');
    expect(await ctx.secrets.get('BOTH')).toBe('rotated');
  });

  it('set with a non-string value throws TypeError and writes nothing', async () => {
    const { ctx, capabilities } = setupSecrets();
    await expect(ctx.secrets.set('ACME_TOKEN', 42 as unknown as string)).rejects.toThrow(
      new TypeError('ctx.secrets.set("ACME_TOKEN"): the value must be a string'),
    );
    await expect(ctx.secrets.set('ACME_TOKEN', undefined as unknown as string)).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(capabilities.state.secrets.account.has('ACME_TOKEN')).toBe(false);
  });

  it('an empty or non-string name throws TypeError', async () => {
    const { ctx } = setupSecrets();
    const message = 'ctx.secrets: a secret name must be a non-empty string';
    await expect(ctx.secrets.get('')).rejects.toThrow(new TypeError(message));
    await expect(ctx.secrets.set('', 'v')).rejects.toThrow(new TypeError(message));
    await expect(ctx.secrets.get(7 as unknown as string)).rejects.toThrow(new TypeError(message));
  });
});

describe('ctx.logger', () => {
  const setupLogger = () => {
    const capabilities = createMemoryCapabilities();
    const ctx = createContext({ definition: { slug: 'acme-notes' }, capabilities, actor: USER });
    return { ctx, capabilities };
  };

  it.each(['debug', 'info', 'warn', 'error'] as const)(
    '%s goes to the log with URLs redacted in the message and nested fields',
    (level) => {
      const { ctx, capabilities } = setupLogger();
      ctx.logger[level]('calling https://bot:s3cret@api.acme.com/v1/items?token=abc#frag now', {
        request: { url: 'https://user:pw@api.acme.com/v1?key=k', tries: [1, 'see http://h.acme.com/p?q=1'] },
        count: 3,
        ok: true,
        nothing: null,
      });
      expect(capabilities.state.logs).toStrictEqual([
        {
          level,
          message: 'calling https://api.acme.com/v1/items?... now',
          fields: {
            request: { url: 'https://api.acme.com/v1?...', tries: [1, 'see http://h.acme.com/p?...'] },
            count: 3,
            ok: true,
            nothing: null,
          },
        },
      ]);
    },
  );

  it('logs without fields carry no fields key, and entries keep their order', () => {
    const { ctx, capabilities } = setupLogger();
    ctx.logger.info('first');
    ctx.logger.error('second https://a.acme.com/?x=1');
    expect(capabilities.state.logs).toStrictEqual([
      { level: 'info', message: 'first' },
      { level: 'error', message: 'second https://a.acme.com/?...' },
    ]);
  });

  it('reduces an Error in the fields to its name and redacted message', () => {
    const { ctx, capabilities } = setupLogger();
    const error = new TypeError('failed at https://u:p@api.acme.com/x?key=secret');
    ctx.logger.warn('request failed', { error, nested: { errors: [new RangeError('no query here')] } });
    expect(capabilities.state.logs).toStrictEqual([
      {
        level: 'warn',
        message: 'request failed',
        fields: {
          error: { name: 'TypeError', message: 'failed at https://api.acme.com/x?...' },
          nested: { errors: [{ name: 'RangeError', message: 'no query here' }] },
        },
      },
    ]);
    expect(JSON.stringify(capabilities.state.logs)).not.toContain('secret');
  });

  it('does not change the fields object it was given', () => {
    const { ctx } = setupLogger();
    const fields = { url: 'https://api.acme.com/?token=t' };
    ctx.logger.info('x', fields);
    expect(fields).toEqual({ url: 'https://api.acme.com/?token=t' });
  });
});

describe('ctx.actor and ctx itself', () => {
  it('ctx.actor equals the actor passed and is frozen', () => {
    const actor = { kind: 'user' as const, userId: 'user-9', accountId: 'account-9' };
    const ctx = createContext({
      definition: { slug: 'acme-notes' },
      capabilities: createMemoryCapabilities(),
      actor,
    });
    expect(ctx.actor).toStrictEqual({ kind: 'user', userId: 'user-9', accountId: 'account-9' });
    expect(Object.isFrozen(ctx.actor)).toBe(true);
    expect(() => {
      (ctx.actor as { accountId: string }).accountId = 'other';
    }).toThrow(TypeError);
    expect(ctx.actor.accountId).toBe('account-9');
    // The caller's object is not frozen by side effect.
    expect(Object.isFrozen(actor)).toBe(false);
    actor.accountId = 'changed-later';
    expect(ctx.actor.accountId).toBe('account-9');
  });

  it('a machine actor is passed through', () => {
    const ctx = createContext({
      definition: { slug: 'acme-notes' },
      capabilities: createMemoryCapabilities(),
      actor: MACHINE,
    });
    expect(ctx.actor).toStrictEqual({ kind: 'machine', accountId: 'account-1' });
    expect(ctx.actor.kind).toBe('machine');
  });

  it('ctx and its members are frozen', () => {
    const ctx = createContext({
      definition: { slug: 'acme-notes' },
      capabilities: createMemoryCapabilities(),
      actor: USER,
    });
    expect(Object.isFrozen(ctx)).toBe(true);
    expect(Object.isFrozen(ctx.storage)).toBe(true);
    expect(Object.isFrozen(ctx.storage.account)).toBe(true);
    expect(Object.isFrozen(ctx.secrets)).toBe(true);
    expect(Object.isFrozen(ctx.logger)).toBe(true);
  });
});

describe('ctx.remainingMs', () => {
  const at = (deadline?: number) =>
    createContext({
      definition: { slug: 'acme-notes' },
      capabilities: createMemoryCapabilities(),
      actor: USER,
      ...(deadline === undefined ? {} : { deadline }),
    });

  it('counts down to the deadline and stops at 0', () => {
    const left = at(Date.now() + 60_000).remainingMs();
    expect(left).toBeGreaterThan(50_000);
    expect(left).toBeLessThanOrEqual(60_000);
    expect(at(Date.now() - 5_000).remainingMs()).toBe(0);
  });

  it('is Infinity without a deadline', () => {
    expect(at().remainingMs()).toBe(Number.POSITIVE_INFINITY);
    expect(at(Number.NaN).remainingMs()).toBe(Number.POSITIVE_INFINITY);
  });
});
