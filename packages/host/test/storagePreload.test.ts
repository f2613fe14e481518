import { buildBundle, createIsolatedRuntime } from '@platform/host';
import {
  type Capabilities,
  createMemoryCapabilities,
  type PreloadedValue,
  type StorageRef,
} from '@platform/sdk/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Queryable, sqlText } from '../src/db/Db.js';
import { writeStorage } from '../src/store/storage.js';
import { FIXTURES, startTestHost, type TestHost } from './_host.js';

// The isolated runtime reads ahead the storage keys a handler read in its last call and sends
// them with the next one (src/runtime/createIsolatedRuntime.ts, the prelude's capabilitiesFor):
// the guest answers a get of such a key itself, and says which it used with its next request or
// its result, so the host counts the read before anything that depends on it.

/** Memory capabilities that record what the runtime asks of them, with the preload hooks. */
function recording(notes: unknown) {
  const base = createMemoryCapabilities({ storage: { account: { 'cache/notes': notes } } });
  const events: string[] = [];
  const reads: StorageRef[] = [];
  const read = (scope: 'account' | 'user', key: string) => {
    if (!reads.some((ref) => ref.scope === scope && ref.key === key)) reads.push({ scope, key });
  };
  const capabilities: Capabilities = {
    ...base,
    storage: {
      async get(scope, key) {
        events.push(`get ${key}`);
        read(scope, key);
        return base.storage.get(scope, key);
      },
      async set(scope, key, value) {
        events.push(`set ${key}`);
        return base.storage.set(scope, key, value);
      },
      async delete(scope, key) {
        events.push(`delete ${key}`);
        return base.storage.delete(scope, key);
      },
      async preload(refs) {
        events.push(`preload ${refs.map((ref) => ref.key).join(',')}`);
        const values: PreloadedValue[] = [];
        for (const ref of refs) {
          const value = await base.storage.get(ref.scope, ref.key);
          values.push(value === undefined ? { ...ref } : { ...ref, value });
        }
        return values;
      },
      preloadUsed(refs) {
        events.push(`used ${refs.map((ref) => ref.key).join(',')}`);
        for (const ref of refs) read(ref.scope, ref.key);
      },
      reads: () => reads,
    },
  };
  return { capabilities, events, state: base.state };
}

describe('storage read ahead: the runtime and the guest', () => {
  const runtime = createIsolatedRuntime({ runners: 1 });
  let bundle: string;
  const invoke = (actionName: string, input: unknown, capabilities: Capabilities) =>
    runtime.invokeAction({
      version: { id: 'notes-v1', slug: 'test-notes', number: 1, loadBundle: async () => bundle },
      capabilities,
      actor: { kind: 'user', userId: 'u1', accountId: 'a1' },
      timeoutMs: 10_000,
      actionName,
      rawBody: JSON.stringify(input),
    });

  beforeAll(async () => {
    bundle = await buildBundle(`${FIXTURES}notes/integration.ts`);
  });
  afterAll(() => runtime.close());

  it('sends the keys a handler read last time, and the guest names those it used before its writes', async () => {
    const first = recording([{ id: 'n1', title: 'one' }]);
    expect(await invoke('add-note', { title: 'two' }, first.capabilities)).toMatchObject({ ok: true });
    expect(first.events).toEqual(['get cache/notes', 'set cache/notes']);

    const second = recording([{ id: 'n1', title: 'one' }]);
    const envelope = await invoke('add-note', { title: 'two' }, second.capabilities);
    expect(envelope).toEqual({ ok: true, data: { id: 'n2', title: 'two' } });
    // No get crossed; the read is counted before the write that builds on it.
    expect(second.events).toEqual(['preload cache/notes', 'used cache/notes', 'set cache/notes']);
  });

  it('a handler that only reads names what it used with its result; an absent key stays absent', async () => {
    const first = recording([{ id: 'n1', title: 'one' }]);
    expect(await invoke('list-notes', {}, first.capabilities)).toEqual({
      ok: true,
      data: [{ id: 'n1', title: 'one' }],
    });
    expect(first.events).toEqual(['get cache/notes']);

    const second = recording([{ id: 'n9', title: 'nine' }]);
    expect(await invoke('list-notes', {}, second.capabilities)).toEqual({
      ok: true,
      data: [{ id: 'n9', title: 'nine' }],
    });
    expect(second.events).toEqual(['preload cache/notes', 'used cache/notes']);

    const empty = recording(undefined);
    expect(await invoke('list-notes', {}, empty.capabilities)).toEqual({ ok: true, data: [] });
    expect(empty.events).toEqual(['preload cache/notes', 'used cache/notes']);
  });
});

describe('storage read ahead: the host counts a preloaded read at commit', () => {
  let host: TestHost;
  // Set by a test: runs once, right after the next read of one stored key completes.
  let afterNextRead: (() => Promise<void>) | undefined;

  const addNote = (title: string) =>
    host.call(`/api/integrations/test-notes/actions/add-note?accountId=${host.accountId}`, {
      json: { title },
    });
  const stored = async () =>
    (
      await host.db.query(
        "SELECT value FROM storage WHERE integration_slug = 'test-notes' AND key = 'cache/notes'",
      )
    ).rows[0]?.value;

  beforeAll(async () => {
    host = await startTestHost();
    const db = host.services.db as { query: Queryable['query'] };
    const query = db.query.bind(host.services.db);
    db.query = async <T>(statement: Parameters<Queryable['query']>[0], params?: readonly unknown[]) => {
      const result = await query<T>(statement, params);
      if (afterNextRead !== undefined && /^SELECT value, version FROM storage/.test(sqlText(statement))) {
        const then = afterNextRead;
        afterNextRead = undefined;
        await then();
      }
      return result;
    };
  });
  afterAll(async () => {
    await host?.close();
  });

  it('another write between the read ahead and the commit answers 409 conflict, and nothing is lost', async () => {
    expect((await addNote('one')).status).toBe(200);
    // The next call's read of cache/notes happens ahead of its handler; a write lands right after.
    afterNextRead = () =>
      writeStorage(
        host.db,
        { slug: 'test-notes', accountId: host.accountId, scope: 'account', userId: '' },
        'cache/notes',
        [{ id: 'x', title: 'written meanwhile' }],
      );
    const response = await addNote('two');
    expect(response.status).toBe(409);
    expect((await response.json()) as unknown).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(afterNextRead).toBeUndefined();
    expect(await stored()).toEqual([{ id: 'x', title: 'written meanwhile' }]);

    expect((await addNote('three')).status).toBe(200);
    expect(await stored()).toEqual([
      { id: 'x', title: 'written meanwhile' },
      { id: 'n2', title: 'three' },
    ]);
  });
});
