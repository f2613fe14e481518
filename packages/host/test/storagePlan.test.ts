import { StorageConflictError } from '@platform/sdk/integration';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callCapabilities } from '../src/capabilities/callCapabilities.js';
import type { Queryable } from '../src/db/Db.js';
import { liveVersion } from '../src/store/integrations.js';
import {
  applyStoragePlan,
  readVersionedStorage,
  readVersionedStorageMany,
  type StoragePlan,
  type StoredKey,
  writeStorage,
} from '../src/store/storage.js';
import { startTestHost, type TestHost, watchStatements } from './_host.js';

// The host's half of the storage conflict rule: applyStoragePlan checks and writes a commit's
// keys in one transaction. Runs on PGlite here and on PostgreSQL from storageConcurrency.pg.test.ts,
// where two transactions really run at once.

const SLUG = 'test-concurrency';

class Refused extends Error {
  constructor(readonly result: Awaited<ReturnType<typeof applyStoragePlan>>) {
    super('a key changed');
  }
}

describe('applyStoragePlan', { timeout: 60_000 }, () => {
  let host: TestHost;
  const key = (name: string): StoredKey => ({
    slug: SLUG,
    accountId: host.accountId,
    scope: 'account',
    userId: '',
    key: name,
  });
  const put = (name: string, value: unknown) => writeStorage(host.db, key(name), name, value);
  const version = async (name: string) => (await readVersionedStorage(host.db, key(name))).version;
  const value = async (name: string) => (await readVersionedStorage(host.db, key(name))).value;
  // As the host commits: a changed key rolls the whole transaction back.
  const apply = (plan: StoragePlan) =>
    host.db
      .transaction(async (tx: Queryable) => {
        const result = await applyStoragePlan(tx, plan);
        if (!result.ok) throw new Refused(result);
        return result;
      })
      .catch((error: unknown) => {
        if (error instanceof Refused) return error.result;
        throw error;
      });
  const rowCount = async () =>
    (await host.db.query('SELECT count(*)::int AS n FROM storage WHERE integration_slug = $1', [SLUG]))
      .rows[0]!.n as number;

  beforeAll(async () => {
    host = await startTestHost({ projects: ['concurrency'] });
  });
  afterAll(async () => {
    await host?.close();
  });
  beforeEach(async () => {
    await host.db.query('DELETE FROM storage WHERE integration_slug = $1', [SLUG]);
  });

  it('writes a key read at its version, and gives it a new one', async () => {
    await put('a', ['x']);
    const read = await version('a');
    const outcome = await apply({ checks: [], saves: [{ ...key('a'), value: ['y'], expected: read }] });
    expect(outcome).toEqual({ ok: true, versions: [expect.any(Number)] });
    expect(outcome.ok && outcome.versions[0]).toBe(await version('a'));
    expect(await version('a')).toBeGreaterThan(read);
    expect(await value('a')).toEqual(['y']);
  });

  it('answers the first changed key and the caller rolls back what was written before it', async () => {
    await put('a', 1);
    await put('b', 1);
    const [a, b] = [await version('a'), await version('b')];
    await put('b', 2);
    const outcome = await apply({
      checks: [],
      saves: [
        { ...key('a'), value: 10, expected: a },
        { ...key('b'), value: 20, expected: b },
      ],
    });
    expect(outcome).toEqual({ ok: false, changed: { in: 'saves', index: 1 } });
    expect([await value('a'), await value('b')]).toEqual([1, 2]);
  });

  it('inserts a key read as absent only while it is still absent', async () => {
    expect(await apply({ checks: [], saves: [{ ...key('new'), value: 1, expected: 0 }] })).toMatchObject({
      ok: true,
    });
    expect(await apply({ checks: [], saves: [{ ...key('new'), value: 2, expected: 0 }] })).toEqual({
      ok: false,
      changed: { in: 'saves', index: 0 },
    });
    expect(await value('new')).toBe(1);
  });

  it('checks keys only read, present and absent, leaving no placeholder row behind', async () => {
    await put('present', 'p');
    const present = await version('present');
    const plan = (absentVersion = 0): StoragePlan => ({
      checks: [
        { ...key('absent'), version: absentVersion },
        { ...key('present'), version: present },
      ],
      saves: [{ ...key('out'), value: 'o', expected: undefined }],
    });
    expect(await apply(plan())).toMatchObject({ ok: true });
    expect(await rowCount()).toBe(2);
    expect(await version('absent')).toBe(0);
    await put('absent', 'now here');
    expect(await apply(plan())).toEqual({ ok: false, changed: { in: 'checks', index: 0 } });
    await put('present', 'changed');
    expect(await apply(plan(await version('absent')))).toEqual({
      ok: false,
      changed: { in: 'checks', index: 1 },
    });
  });

  it('deletes a key read at its version, and refuses when it changed; a blind delete always goes', async () => {
    await put('a', 1);
    await put('b', 1);
    const read = await version('a');
    await put('a', 2);
    expect(await apply({ checks: [], saves: [{ ...key('a'), value: undefined, expected: read }] })).toEqual({
      ok: false,
      changed: { in: 'saves', index: 0 },
    });
    const now = await version('a');
    expect(
      await apply({
        checks: [],
        saves: [
          { ...key('a'), value: undefined, expected: now },
          { ...key('b'), value: undefined, expected: undefined },
        ],
      }),
    ).toEqual({ ok: true, versions: [0, 0] });
    expect(await rowCount()).toBe(0);
  });

  it('refuses a delete of a key read as absent once it exists', async () => {
    await put('late', 1);
    expect(await apply({ checks: [], saves: [{ ...key('late'), value: undefined, expected: 0 }] })).toEqual({
      ok: false,
      changed: { in: 'saves', index: 0 },
    });
    expect(await value('late')).toBe(1);
  });

  it('lets only one of two concurrent commits through when each read as absent what the other inserts', async () => {
    // Write skew: each call read the other's key as absent and inserts its own.
    const plan = (mine: string, theirs: string): StoragePlan => ({
      checks: [{ ...key(theirs), version: 0 }],
      saves: [{ ...key(mine), value: mine, expected: 0 }],
    });
    for (let round = 0; round < 3; round += 1) {
      await host.db.query('DELETE FROM storage WHERE integration_slug = $1', [SLUG]);
      const outcomes = await Promise.all([apply(plan('k', 'l')), apply(plan('l', 'k'))]);
      expect(outcomes.map((outcome) => outcome.ok).sort()).toEqual([false, true]);
      // Only the winner's insert is stored, and no placeholder.
      expect(await rowCount()).toBe(1);
    }
  });
});

describe('first reads of several calls in one statement', { timeout: 60_000 }, () => {
  let host: TestHost;
  let watched: ReturnType<typeof watchStatements>;
  const statements = () => watched.texts;
  const at = (name: string, scope: 'account' | 'user' = 'account', userId = ''): StoredKey => ({
    slug: SLUG,
    accountId: host.accountId,
    scope,
    userId,
    key: name,
  });

  beforeAll(async () => {
    host = await startTestHost({ projects: ['concurrency'] });
    watched = watchStatements(host, /FROM storage/);
  });
  afterAll(async () => {
    await host?.close();
  });
  beforeEach(async () => {
    await host.db.query('DELETE FROM storage WHERE integration_slug = $1', [SLUG]);
    watched.clear();
  });

  it('answers each key in the order asked, an absent one at version 0, scopes and users apart', async () => {
    await writeStorage(host.db, at('a'), 'a', { n: 1 });
    await writeStorage(host.db, at('a', 'user', 'u1'), 'a', 'mine');
    const keys = [at('missing'), at('a', 'user', 'u1'), at('a'), at('a', 'user', 'u2'), at('a')];
    const found = await readVersionedStorageMany(host.db, keys);
    expect(found.map((one) => one.value)).toEqual([undefined, 'mine', { n: 1 }, undefined, { n: 1 }]);
    expect(found[0]!.version).toBe(0);
    expect(found[3]!.version).toBe(0);
    // The same key asked twice answers the same version, the one a read of its own gives.
    expect(found[2]!.version).toBe((await readVersionedStorage(host.db, at('a'))).version);
    expect(found[4]!.version).toBe(found[2]!.version);
    expect(found[2]!.version).toBeGreaterThan(0);
  });

  it('sends the reads submitted together through services.storageReads as one statement', async () => {
    await writeStorage(host.db, at('a'), 'a', 1);
    await writeStorage(host.db, at('b'), 'b', 2);
    watched.clear();
    const reads = await Promise.all(
      [at('a'), at('b'), at('c')].map((key) => host.services.storageReads.submit(key)),
    );
    expect(reads.map((read) => read.value)).toEqual([1, 2, undefined]);
    expect(statements()).toHaveLength(1);
    expect(statements()[0]).toMatch(/unnest/);
    // A lone read goes as the single-key statement.
    watched.clear();
    expect((await host.services.storageReads.submit(at('b'))).value).toBe(2);
    expect(statements()).toHaveLength(1);
    expect(statements()[0]).not.toMatch(/unnest/);
    // So do reads of one key by several calls: it is looked up once.
    watched.clear();
    const same = await Promise.all([1, 2, 3].map(() => host.services.storageReads.submit(at('a'))));
    expect(same.map((read) => read.value)).toEqual([1, 1, 1]);
    expect(statements()).toHaveLength(1);
    expect(statements()[0]).not.toMatch(/unnest/);
  });

  it("shares statements between calls' capabilities: preloads and first gets", async () => {
    await writeStorage(host.db, at('settings/sync'), 'settings/sync', { pages: 3 });
    const version = (await liveVersion(host.db, SLUG))!;
    const calls = Array.from({ length: 4 }, () =>
      callCapabilities(host.services, { version, accountId: host.accountId, userId: host.userId }),
    );
    watched.clear();
    const ref = { scope: 'account' as const, key: 'settings/sync' };
    const preloaded = await Promise.all(
      calls.slice(0, 2).map((call) => call.capabilities.storage.preload!([ref])),
    );
    const got = await Promise.all(
      calls.slice(2).map((call) => call.capabilities.storage.get('account', ref.key)),
    );
    expect(preloaded).toEqual([[{ ...ref, value: { pages: 3 } }], [{ ...ref, value: { pages: 3 } }]]);
    expect(got).toEqual([{ pages: 3 }, { pages: 3 }]);
    expect(statements()).toHaveLength(2);
    // Each call tracks its own read: a write by another call conflicts at its commit.
    await calls[2]!.capabilities.storage.set('account', ref.key, { pages: 4 });
    await calls[2]!.commit();
    await calls[3]!.capabilities.storage.set('account', ref.key, { pages: 5 });
    await expect(calls[3]!.commit()).rejects.toBeInstanceOf(StorageConflictError);
    expect((await readVersionedStorage(host.db, at('settings/sync'))).value).toEqual({ pages: 4 });
  });
});
