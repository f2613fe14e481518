import {
  type Actor,
  defineIntegration,
  type IntegrationContext,
  StorageConflictError,
  StorageValidationError,
} from '@platform/sdk/integration';
import {
  ACTION_ERROR_STATUS,
  type Capabilities,
  createContext,
  createMemoryCapabilities,
  invokeAction,
  STORAGE_CONFLICT_MESSAGE,
} from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// ctx.storage.<scope>.update and ctx.checkpoint over memory capabilities: directly (every write
// saved at once, as createMockContext does) and through openCall() (the host's per-call rule).

const USER: Actor = { kind: 'user', userId: 'user-1', accountId: 'account-1' };

const definition = defineIntegration({
  slug: 'acme-notes',
  storage: {
    account: {
      'sync_state/deleted-ids': z.array(z.string()),
      'sync_state/cursor': z.object({ page: z.number().int() }),
      metrics_summary: z.object({ label: z.string(), total: z.number().default(0) }),
    },
    user: { 'cache/draft': z.string() },
  },
});

type Ctx = IntegrationContext<NonNullable<(typeof definition)['storage']>>;
const contextOf = (capabilities: Capabilities): Ctx =>
  createContext({ definition, capabilities, actor: USER }) as unknown as Ctx;

function callOn(memory: ReturnType<typeof createMemoryCapabilities>) {
  const call = memory.openCall();
  const capabilities: Capabilities = { ...memory, ...call };
  return { call, ctx: contextOf(capabilities) };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('ctx.storage.<scope>.update', () => {
  it('reads the validated value, stores what fn returns, and answers it as a read would', async () => {
    const memory = createMemoryCapabilities({ storage: { account: { metrics_summary: { label: 'week' } } } });
    const ctx = contextOf(memory);
    const seen: unknown[] = [];
    const next = await ctx.storage.account.update('metrics_summary', (current) => {
      seen.push(current);
      return { label: `${current?.label} 2` };
    });
    // fn got the schema's output (default filled in); the answer is the output of what was stored.
    expect(seen).toStrictEqual([{ label: 'week', total: 0 }]);
    expect(next).toStrictEqual({ label: 'week 2', total: 0 });
    expect(memory.state.storage.account.get('metrics_summary')).toStrictEqual({ label: 'week 2' });
  });

  it('starts from undefined for an unset key, takes an async fn, and works on user storage', async () => {
    const memory = createMemoryCapabilities();
    const ctx = contextOf(memory);
    const ids = await ctx.storage.account.update('sync_state/deleted-ids', async (current = []) => [
      ...current,
      'a',
    ]);
    expect(ids).toEqual(['a']);
    expect(await ctx.storage.user.update('cache/draft', (current) => `${current ?? ''}hello`)).toBe('hello');
    expect(memory.state.storage.user.get('cache/draft')).toBe('hello');
  });

  it('deletes the key when fn returns undefined', async () => {
    const memory = createMemoryCapabilities({ storage: { account: { 'sync_state/deleted-ids': ['a'] } } });
    const ctx = contextOf(memory);
    expect(await ctx.storage.account.update('sync_state/deleted-ids', () => undefined)).toBeUndefined();
    expect(memory.state.storage.account.has('sync_state/deleted-ids')).toBe(false);
  });

  it('validates what fn returns like set, and stores nothing when it fails', async () => {
    const memory = createMemoryCapabilities({ storage: { account: { 'sync_state/deleted-ids': ['a'] } } });
    const ctx = contextOf(memory);
    const error = await ctx.storage.account
      .update('sync_state/deleted-ids', () => [1] as unknown as string[])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageValidationError);
    expect((error as Error).message).toContain(
      'ctx.storage.account "sync_state/deleted-ids": the value does not match',
    );
    expect(memory.state.storage.account.get('sync_state/deleted-ids')).toEqual(['a']);
  });

  it('refuses an undeclared key and a missing fn, naming the fix', async () => {
    const ctx = contextOf(createMemoryCapabilities());
    const undeclared = ctx.storage.account as unknown as {
      update(key: string, fn: unknown): Promise<unknown>;
    };
    await expect(undeclared.update('nope', () => 1)).rejects.toThrow(
      'ctx.storage.account "nope": this key is not declared. Declare "nope" under storage.account in the definition before using it.',
    );
    await expect(undeclared.update('sync_state/deleted-ids', ['a'])).rejects.toThrow(
      'ctx.storage.account.update("sync_state/deleted-ids", fn): fn must be a function from the current value to the new one (undefined deletes the key)',
    );
  });

  it('never loses an update: of two interleaved calls the second conflicts, and its retry keeps both', async () => {
    const memory = createMemoryCapabilities({ storage: { account: { 'sync_state/deleted-ids': [] } } });
    const remove = async (id: string, gate?: Promise<void>) => {
      const { call, ctx } = callOn(memory);
      await ctx.storage.account.update('sync_state/deleted-ids', async (current = []) => {
        await gate;
        return [...current, id];
      });
      await call.commit();
    };
    const gate = deferred();
    const slow = remove('a', gate.promise);
    await remove('b');
    gate.resolve();
    const error = await slow.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageConflictError);
    expect(error).toMatchObject({ scope: 'account', key: 'sync_state/deleted-ids' });
    expect(memory.state.storage.account.get('sync_state/deleted-ids')).toEqual(['b']);
    await remove('a');
    expect(memory.state.storage.account.get('sync_state/deleted-ids')).toEqual(['b', 'a']);
  });
});

describe('ctx.checkpoint', () => {
  it('saves the writes so far; writes after the last checkpoint go only with the final commit', async () => {
    const memory = createMemoryCapabilities();
    const { ctx } = callOn(memory);
    for (let page = 1; page <= 3; page += 1) {
      await ctx.storage.account.update('sync_state/cursor', () => ({ page }));
      await ctx.storage.account.update('sync_state/deleted-ids', (ids = []) => [...ids, `p${page}`]);
      if (page < 3) await ctx.checkpoint();
    }
    // The handler "fails" here: its call is never committed. Pages 1-2 were checkpointed.
    expect(memory.state.storage.account.get('sync_state/cursor')).toEqual({ page: 2 });
    expect(memory.state.storage.account.get('sync_state/deleted-ids')).toEqual(['p1', 'p2']);
  });

  it('throws StorageConflictError (the sdk class) and saves nothing when another call changed what it read', async () => {
    const memory = createMemoryCapabilities({ storage: { account: { 'sync_state/cursor': { page: 1 } } } });
    const { ctx } = callOn(memory);
    await ctx.storage.account.update('sync_state/cursor', (cursor) => ({ page: (cursor?.page ?? 0) + 1 }));
    await ctx.storage.account.set('sync_state/deleted-ids', ['x']);
    await memory.storage.set('account', 'sync_state/cursor', { page: 9 });
    const error = await ctx.checkpoint().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageConflictError);
    expect(error).toMatchObject({ code: 'STORAGE_CONFLICT', key: 'sync_state/cursor' });
    expect(memory.state.storage.account.get('sync_state/cursor')).toEqual({ page: 9 });
    expect(memory.state.storage.account.has('sync_state/deleted-ids')).toBe(false);
  });

  it('has nothing to do on memory capabilities used directly (every write is already saved)', async () => {
    const memory = createMemoryCapabilities();
    const ctx = contextOf(memory);
    await ctx.storage.account.set('sync_state/deleted-ids', ['a']);
    await expect(ctx.checkpoint()).resolves.toBeUndefined();
    expect(memory.state.storage.account.get('sync_state/deleted-ids')).toEqual(['a']);
  });
});

describe('invokeAction and a conflict', () => {
  it('answers conflict (409), not handler_error, in both modes when a checkpoint conflicts', async () => {
    const withAction = defineIntegration({
      ...definition,
      actions: {
        bump: {
          description: 'Reads the cursor, lets another call move it, then checkpoints',
          input: z.object({}),
          handler: async (ctx) => {
            await ctx.storage.account.update('sync_state/cursor', (cursor) => ({
              page: (cursor?.page ?? 0) + 1,
            }));
            await memory.storage.set('account', 'sync_state/cursor', { page: 50 });
            await ctx.checkpoint();
          },
        },
      },
    });
    const memory = createMemoryCapabilities();
    expect(ACTION_ERROR_STATUS.conflict).toBe(409);
    for (const mode of ['production', 'harness'] as const) {
      const call = memory.openCall();
      const ctx = createContext({
        definition: withAction,
        capabilities: { ...memory, ...call },
        actor: USER,
      });
      const logs = memory.state.logs.length;
      expect(await invokeAction(withAction, 'bump', '{}', ctx, { mode })).toStrictEqual({
        ok: false,
        error: { code: 'conflict', message: STORAGE_CONFLICT_MESSAGE },
      });
      // Logged as what it is, a call to retry, not a failure of the handler.
      expect(memory.state.logs.slice(logs)).toEqual([
        expect.objectContaining({
          level: 'warn',
          message: expect.stringContaining('action "bump" stopped: StorageConflictError'),
        }),
      ]);
    }
    expect(STORAGE_CONFLICT_MESSAGE).toBe('Another call changed the same stored data; retry the call.');
  });
});
