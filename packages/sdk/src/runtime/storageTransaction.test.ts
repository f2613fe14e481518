import { describe, expect, it } from 'vitest';
import { StorageConflictError } from '../integration/errors.js';
import {
  createJsonVersions,
  createStorageTransaction,
  type JsonStorageState,
  jsonCommitTarget,
  type StorageCommitPlan,
  type StorageCommitTarget,
  type StorageRef,
} from './storageTransaction.js';

// A store as the memory capabilities keep one: JSON values, versions, commits one at a time.
function memoryStore(initial: Record<string, unknown> = {}) {
  const values = new Map<string, unknown>(
    Object.entries(initial).map(([key, value]) => [`account:${key}`, value]),
  );
  const id = (ref: StorageRef) => `${ref.scope}:${ref.key}`;
  const state: JsonStorageState = {
    get: (ref) => values.get(id(ref)),
    set: (ref, value) => values.set(id(ref), value),
    delete: (ref) => values.delete(id(ref)),
  };
  const versions = createJsonVersions();
  const plans: StorageCommitPlan[] = [];
  const target = jsonCommitTarget(state, versions);
  const recording: StorageCommitTarget = {
    apply(plan) {
      plans.push(plan);
      return target.apply(plan);
    },
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    value: (key: string) => values.get(`account:${key}`),
    plans,
    target: recording,
    /** A call over this store. */
    open: () =>
      createStorageTransaction({
        load: async (ref) => ({ value: state.get(ref), version: versions.versionOf(ref, state.get(ref)) }),
      }),
    /** The section the memory capabilities run: one commit at a time. */
    section: (apply: (target: StorageCommitTarget) => Promise<void>) => {
      const next = queue.then(() => apply(recording));
      queue = next.catch(() => {});
      return next;
    },
  };
}

describe('storage transaction: the conflict rule', () => {
  it('saves a read-modify-write when nothing changed meanwhile', async () => {
    const store = memoryStore({ ids: ['a', 'b'] });
    const call = store.open();
    const ids = (await call.get('account', 'ids')) as string[];
    call.set(
      'account',
      'ids',
      ids.filter((id) => id !== 'a'),
    );
    expect(call.hasWrites).toBe(true);
    await call.commit(store.section);
    expect(call.hasWrites).toBe(false);
    expect(store.value('ids')).toEqual(['b']);
  });

  it('refuses the second of two interleaved read-modify-writes of one key, writing nothing', async () => {
    const store = memoryStore({ ids: ['a', 'b', 'c'], other: 1 });
    const first = store.open();
    const second = store.open();
    const one = (await first.get('account', 'ids')) as string[];
    const two = (await second.get('account', 'ids')) as string[];
    first.set(
      'account',
      'ids',
      one.filter((id) => id !== 'a'),
    );
    second.set(
      'account',
      'ids',
      two.filter((id) => id !== 'b'),
    );
    second.set('account', 'other', 2);
    await first.commit(store.section);
    const error = await second.commit(store.section).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageConflictError);
    expect(error).toMatchObject({ code: 'STORAGE_CONFLICT', scope: 'account', key: 'ids' });
    expect((error as Error).message).toBe(
      'ctx.storage.account "ids" was changed by another call after this call read it, so this call\'s writes were not saved; the call may be retried',
    );
    expect(store.value('ids')).toEqual(['b', 'c']);
    expect(store.value('other')).toBe(1);
    // The call stays conflicted: it has to run again.
    expect(second.conflict).toBe(error);
    await expect(second.commit(store.section)).rejects.toBe(error);
  });

  it('checks keys the call only read; asks the store for every key sorted, blind writes without a version', async () => {
    const store = memoryStore({ settings: { on: true } });
    const call = store.open();
    await call.get('account', 'settings');
    call.set('account', 'b-result', 1);
    call.set('account', 'a-result', 2);
    await call.get('account', 'counter');
    call.set('account', 'counter', 1);
    const other = store.open();
    other.set('account', 'settings', { on: false });
    await other.commit(store.section);
    await expect(call.commit(store.section)).rejects.toMatchObject({ key: 'settings' });
    expect(store.plans.at(-1)).toEqual({
      checks: [{ scope: 'account', key: 'settings', version: expect.any(Number) }],
      writes: [
        { scope: 'account', key: 'a-result', expected: undefined, deleted: false, value: 2 },
        { scope: 'account', key: 'b-result', expected: undefined, deleted: false, value: 1 },
        // Read as absent: it must still be absent (version 0).
        { scope: 'account', key: 'counter', expected: 0, deleted: false, value: 1 },
      ],
    });
    expect(store.value('a-result')).toBeUndefined();
  });

  it('treats an absent key read as absent like any version: a first insert by another call conflicts', async () => {
    const store = memoryStore();
    const first = store.open();
    const second = store.open();
    expect(await first.get('account', 'ids')).toBeUndefined();
    expect(await second.get('account', 'ids')).toBeUndefined();
    first.set('account', 'ids', ['x']);
    second.set('account', 'ids', ['y']);
    await first.commit(store.section);
    await expect(second.commit(store.section)).rejects.toBeInstanceOf(StorageConflictError);
    expect(store.value('ids')).toEqual(['x']);
  });

  it('counts a key written back to an earlier value as changed (versions are never reused)', async () => {
    const store = memoryStore({ ids: ['a'] });
    const reader = store.open();
    await reader.get('account', 'ids');
    for (const value of [['b'], ['a']]) {
      const writer = store.open();
      writer.set('account', 'ids', value);
      await writer.commit(store.section);
    }
    reader.set('account', 'ids', ['c']);
    await expect(reader.commit(store.section)).rejects.toBeInstanceOf(StorageConflictError);
  });

  it('lets blind writes (keys never read) through: the last save wins', async () => {
    const store = memoryStore({ last: 'old' });
    const first = store.open();
    const second = store.open();
    first.set('account', 'last', 'first');
    second.set('account', 'last', 'second');
    await second.commit(store.section);
    await first.commit(store.section);
    expect(store.value('last')).toBe('first');
  });

  it('checks nothing when there is nothing to save', async () => {
    const store = memoryStore({ ids: ['a'] });
    const reader = store.open();
    await reader.get('account', 'ids');
    const writer = store.open();
    writer.delete('account', 'ids');
    await writer.commit(store.section);
    await expect(reader.commit(store.section)).resolves.toBeUndefined();
    expect(reader.conflict).toBeUndefined();
  });

  it('gives each call the value it first read, plus its own writes', async () => {
    const store = memoryStore({ n: 1 });
    const call = store.open();
    expect(await call.get('account', 'n')).toBe(1);
    const other = store.open();
    other.set('account', 'n', 2);
    await other.commit(store.section);
    expect(await call.get('account', 'n')).toBe(1);
    call.set('account', 'n', 5);
    expect(await call.get('account', 'n')).toBe(5);
    call.delete('account', 'n');
    expect(await call.get('account', 'n')).toBeUndefined();
    // A value handed out is a copy: changing it changes nothing stored or held.
    const list = memoryStore({ ids: ['a'] }).open();
    ((await list.get('account', 'ids')) as string[]).push('b');
    expect(await list.get('account', 'ids')).toEqual(['a']);
  });

  it('refuses to hold undefined as a value (a delete says so)', () => {
    expect(() => memoryStore().open().set('account', 'k', undefined)).toThrow(
      'storage.set("k"): undefined cannot be stored; delete the key instead',
    );
  });
});

describe('storage transaction: checkpoints (several commits of one call)', () => {
  it('builds on its own checkpoint: a later write of the same key does not conflict with it', async () => {
    const store = memoryStore({ cursor: 0 });
    const call = store.open();
    for (let page = 1; page <= 3; page += 1) {
      const cursor = (await call.get('account', 'cursor')) as number;
      call.set('account', 'cursor', cursor + 1);
      await call.commit(store.section);
      expect(store.value('cursor')).toBe(page);
    }
  });

  it('still conflicts when another call changes a key after the checkpoint', async () => {
    const store = memoryStore({ cursor: 0 });
    const call = store.open();
    await call.get('account', 'cursor');
    call.set('account', 'cursor', 1);
    await call.commit(store.section);
    const other = store.open();
    other.set('account', 'cursor', 100);
    await other.commit(store.section);
    call.set('account', 'cursor', 2);
    await expect(call.commit(store.section)).rejects.toMatchObject({ key: 'cursor' });
    expect(store.value('cursor')).toBe(100);
  });

  it('tracks a blind write once the call reads back what it saved', async () => {
    const store = memoryStore();
    const call = store.open();
    call.set('account', 'ids', ['a']);
    await call.commit(store.section);
    // Still blind: another call's change does not matter while this call has not looked.
    const other = store.open();
    other.set('account', 'ids', ['z']);
    await other.commit(store.section);
    call.set('account', 'ids', ['b']);
    await call.commit(store.section);
    expect(store.value('ids')).toEqual(['b']);
    // Now it reads its own saved value and builds on it: a change in between must conflict.
    expect(await call.get('account', 'ids')).toEqual(['b']);
    const third = store.open();
    third.set('account', 'ids', ['y']);
    await third.commit(store.section);
    call.set('account', 'ids', ['b', 'c']);
    await expect(call.commit(store.section)).rejects.toBeInstanceOf(StorageConflictError);
  });

  it('keeps a write made while a checkpoint runs pending for the next one', async () => {
    const store = memoryStore();
    const call = store.open();
    call.set('account', 'n', 1);
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => {
      written = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const checkpoint = call.commit(async (apply) => {
      await store.section(apply);
      written();
      await released;
    });
    await wrote;
    call.set('account', 'n', 2);
    release();
    await checkpoint;
    expect(store.value('n')).toBe(1);
    expect(call.hasWrites).toBe(true);
    await call.commit(store.section);
    expect(store.value('n')).toBe(2);
  });

  it('leaves the call as it was when the section fails after the writes (its transaction rolled back)', async () => {
    const store = memoryStore({ n: 1 });
    const call = store.open();
    await call.get('account', 'n');
    call.set('account', 'n', 2);
    // The check passes and the writes "happen" (then roll back: nothing is stored), then the section fails.
    const failing = async (apply: (target: StorageCommitTarget) => Promise<void>) => {
      await apply({
        apply: async (plan) => ({ ok: true, versions: plan.writes.map(() => 99) }),
      });
      throw new Error('lease lost');
    };
    await expect(call.commit(failing)).rejects.toThrow('lease lost');
    expect(call.hasWrites).toBe(true);
    expect(call.conflict).toBeUndefined();
    await call.commit(store.section);
    expect(store.value('n')).toBe(2);
  });
});
