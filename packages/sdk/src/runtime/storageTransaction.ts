import { StorageConflictError } from '../integration/errors.js';
import type { StorageRef, StorageScopeName } from './capabilities.js';

export type { StorageRef } from './capabilities.js';

// The one rule of storage concurrency (docs/design.md), for the host (over its database) and
// for memory and the harness: a call's writes are saved only if every key the call READ still has
// the version it read. Keys a call only wrote are blind writes and never conflict (last save wins).
// A call sees each key as it first read it, plus its own writes (repeatable reads).

/** A key as a store holds it: `version` 0 means absent (and `value` is undefined). */
export interface VersionedValue {
  readonly value: unknown;
  readonly version: number;
}

/**
 * One write of a commit: a JSON value, or a delete. `expected`: the version the call read (the
 * key must still have it), undefined for a blind write (a key the call never read).
 */
export type StorageWrite = StorageRef & { readonly expected: number | undefined } & (
    | { readonly deleted: false; readonly value: unknown }
    | { readonly deleted: true }
  );

/** A key the call read and does not write: it must still have `version` (0: still absent). */
export type StorageCheck = StorageRef & { readonly version: number };

/** What one commit asks of a store, every list sorted by scope and key. */
export interface StorageCommitPlan {
  readonly checks: readonly StorageCheck[];
  readonly writes: readonly StorageWrite[];
}

/** The new version of each write (0 for a delete), in order; or the first key found changed. */
export type StorageCommitResult =
  | { readonly ok: true; readonly versions: readonly number[] }
  | { readonly ok: false; readonly changed: StorageRef };

/** What a store does inside one commit's atomic section (a database transaction, a serialized update). */
export interface StorageCommitTarget {
  /**
   * Checks every `checks` key and every write's `expected` version against what is stored now,
   * and applies the writes, as one atomic step. Answers `changed` when a version differs: the
   * section then fails, so whatever was already written is rolled back with it.
   */
  apply(plan: StorageCommitPlan): Promise<StorageCommitResult>;
}

export interface StorageTransactionOptions {
  /** Reads one key and its version from the store; called at most once per key and call. */
  load(ref: StorageRef): Promise<VersionedValue>;
}

/** One call's view of storage: reads tracked, writes buffered until a commit (or checkpoint). */
export interface StorageTransaction {
  /** The call's own pending write, else the value as the call first read it (loaded once). */
  get(scope: StorageScopeName, key: string): Promise<unknown>;
  set(scope: StorageScopeName, key: string, value: unknown): void;
  delete(scope: StorageScopeName, key: string): void;
  /**
   * Records that the call read `loaded` for a key it had not touched yet, as `get` would have
   * (a value the host read ahead and the guest used); a key already read or written is left as is.
   */
  noteRead(scope: StorageScopeName, key: string, loaded: VersionedValue): void;
  /** Keys the call read, in the order of their first read. */
  readonly reads: readonly StorageRef[];
  /** Whether writes wait to be saved. */
  readonly hasWrites: boolean;
  /** The conflict a commit found; every later commit throws it again (the call has to run again). */
  readonly conflict: StorageConflictError | undefined;
  /**
   * Saves the pending writes: `section` runs the store's atomic section (a database transaction)
   * and calls `apply` inside it, which checks the read versions and writes. Nothing is written
   * and `StorageConflictError` thrown on a conflict. The call's baseline moves on only
   * when `section` resolves, so a section that fails after `apply` (its transaction rolled back)
   * leaves the call as it was. Commits of one call run one at a time.
   * @example await transaction.commit((apply) => db.transaction((tx) => apply(sqlTarget(tx))));
   */
  commit<T>(section: (apply: (target: StorageCommitTarget) => Promise<void>) => Promise<T>): Promise<T>;
}

interface Entry {
  readonly ref: StorageRef;
  /** The call's view; undefined: absent. */
  value: unknown;
  /** The store version the view builds on (loaded, or saved by this call); undefined: never loaded or saved. */
  base: number | undefined;
  /** The call depends on `base` (it read the stored value, or a value it saved itself). */
  read: boolean;
  /** Writes made, and how many of them are saved: pending while they differ. */
  writes: number;
  saved: number;
}

/**
 * One key of a call's storage as a single string (scope and key): how a call's bookkeeping, and the
 * host's read-ahead values, name a key.
 * @example storageRefId({ scope: 'account', key: 'settings/sync' }) // 'account\nsettings/sync'
 */
export const storageRefId = (ref: StorageRef): string => `${ref.scope}\n${ref.key}`;
const idOf = (scope: StorageScopeName, key: string) => storageRefId({ scope, key });
const byId = (a: [string, Entry], b: [string, Entry]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
const clone = <T>(value: T): T => (value === undefined ? value : structuredClone(value));
// A key's first read: the call now depends on the stored value at that version.
const markRead = (entry: Entry, loaded: VersionedValue) => {
  entry.value = clone(loaded.value);
  entry.base = loaded.version;
  entry.read = true;
};

/**
 * A storage transaction for one call (see {@link StorageTransaction}); the host's capabilities
 * commit it in a database transaction, the memory capabilities and the harness in a serialized
 * in-memory section ({@link jsonCommitTarget}).
 * @example const transaction = createStorageTransaction({ load: (ref) => readVersioned(db, ref) });
 */
export function createStorageTransaction(options: StorageTransactionOptions): StorageTransaction {
  const entries = new Map<string, Entry>();
  let conflict: StorageConflictError | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const entryFor = (scope: StorageScopeName, key: string): Entry => {
    const id = idOf(scope, key);
    let entry = entries.get(id);
    if (entry === undefined) {
      entry = { ref: { scope, key }, value: undefined, base: undefined, read: false, writes: 0, saved: 0 };
      entries.set(id, entry);
    }
    return entry;
  };

  async function commitOnce<T>(
    section: (apply: (target: StorageCommitTarget) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    if (conflict !== undefined) throw conflict;
    const all = [...entries].sort(byId).map(([, entry]) => entry);
    const pending = all
      .filter((entry) => entry.writes !== entry.saved)
      .map((entry) => ({ entry, writes: entry.writes, value: entry.value }));
    // Keys the call read are checked at the version it read; keys it only wrote are blind writes.
    const expected = (entry: Entry) => (entry.read ? entry.base : undefined);
    const plan: StorageCommitPlan = {
      checks: all
        .filter((entry) => entry.read && entry.writes === entry.saved)
        .map((entry) => ({ ...entry.ref, version: entry.base ?? 0 })),
      writes: pending.map(({ entry, value }) =>
        value === undefined
          ? { ...entry.ref, expected: expected(entry), deleted: true as const }
          : { ...entry.ref, expected: expected(entry), deleted: false as const, value },
      ),
    };
    let savedVersions: readonly number[] | undefined;
    const result = await section(async (target) => {
      // Nothing to save: nothing can be lost, so reads are not checked.
      if (pending.length === 0) return;
      const outcome = await target.apply(plan);
      if (!outcome.ok) {
        conflict = new StorageConflictError(outcome.changed.scope, outcome.changed.key);
        throw conflict;
      }
      if (outcome.versions.length !== pending.length)
        throw new Error('the store answered a version per write');
      savedVersions = outcome.versions;
    });
    if (savedVersions !== undefined) {
      pending.forEach(({ entry, writes }, index) => {
        entry.base = savedVersions![index];
        // A write made while this commit ran stays pending.
        entry.saved = writes;
      });
    }
    return result;
  }

  return {
    async get(scope, key) {
      let entry = entries.get(idOf(scope, key));
      if (entry === undefined) {
        const loaded = await options.load({ scope, key });
        // Another get or a set of the same key may have come first while this one loaded.
        entry = entries.get(idOf(scope, key));
        if (entry === undefined) {
          entry = entryFor(scope, key);
          markRead(entry, loaded);
        }
      } else if (entry.writes === entry.saved && entry.base !== undefined) {
        // A value this call saved earlier: what it does next depends on it staying.
        entry.read = true;
      }
      return clone(entry.value);
    },
    set(scope, key, value) {
      if (value === undefined) {
        throw new TypeError(`storage.set("${key}"): undefined cannot be stored; delete the key instead`);
      }
      const entry = entryFor(scope, key);
      entry.value = clone(value);
      entry.writes += 1;
    },
    delete(scope, key) {
      const entry = entryFor(scope, key);
      entry.value = undefined;
      entry.writes += 1;
    },
    noteRead(scope, key, loaded) {
      if (!entries.has(idOf(scope, key))) markRead(entryFor(scope, key), loaded);
    },
    get reads() {
      const refs: StorageRef[] = [];
      for (const entry of entries.values()) if (entry.read) refs.push(entry.ref);
      return refs;
    },
    get hasWrites() {
      for (const entry of entries.values()) if (entry.writes !== entry.saved) return true;
      return false;
    },
    get conflict() {
      return conflict;
    },
    commit(section) {
      const run = () => commitOnce(section);
      const next = queue.then(run, run);
      queue = next.catch(() => {});
      return next;
    },
  };
}

/**
 * Versions of keys held as plain JSON values (memory, a JSON file): a key's version changes
 * whenever its value does, also when a test or a person edits the data directly.
 */
export interface JsonVersions {
  /** The version of a key now holding `value` (undefined: absent, version 0). */
  versionOf(ref: StorageRef, value: unknown): number;
  /** Records a write (undefined: a delete); answers the key's new version. */
  wrote(ref: StorageRef, value: unknown): number;
}

/**
 * Version bookkeeping for an in-memory store; every write gets a number never used before, so a
 * key written back to an earlier value still counts as changed.
 * @example const versions = createJsonVersions(); versions.wrote({ scope: 'account', key: 'k' }, [1]);
 */
export function createJsonVersions(): JsonVersions {
  const known = new Map<string, { version: number; text: string }>();
  let last = 0;
  return {
    versionOf(ref, value) {
      if (value === undefined) return 0;
      const id = idOf(ref.scope, ref.key);
      const text = JSON.stringify(value);
      const seen = known.get(id);
      if (seen !== undefined && seen.text === text) return seen.version;
      last += 1;
      known.set(id, { version: last, text });
      return last;
    },
    wrote(ref, value) {
      const id = idOf(ref.scope, ref.key);
      if (value === undefined) {
        known.delete(id);
        return 0;
      }
      last += 1;
      known.set(id, { version: last, text: JSON.stringify(value) });
      return last;
    },
  };
}

/** A synchronous JSON key-value state, as the memory capabilities and the harness's live store hold it. */
export interface JsonStorageState {
  get(ref: StorageRef): unknown;
  set(ref: StorageRef, value: unknown): void;
  delete(ref: StorageRef): void;
}

/**
 * The commit target of an in-memory store. It has no locks: run each commit's section one at a
 * time for the whole store (the harness's live store serializes its updates; memory capabilities
 * queue their commits).
 * @example await transaction.commit((apply) => serialized(() => apply(jsonCommitTarget(state, versions))));
 */
export function jsonCommitTarget(state: JsonStorageState, versions: JsonVersions): StorageCommitTarget {
  return {
    async apply(plan) {
      const checked = [
        ...plan.checks.map((check) => ({ ref: check, version: check.version })),
        ...plan.writes.flatMap((write) =>
          write.expected === undefined ? [] : [{ ref: write, version: write.expected }],
        ),
      ];
      for (const { ref, version } of checked) {
        if (versions.versionOf(ref, state.get(ref)) !== version) return { ok: false, changed: ref };
      }
      return {
        ok: true,
        versions: plan.writes.map((write) => {
          if (write.deleted) state.delete(write);
          else state.set(write, clone(write.value));
          return versions.wrote(write, write.deleted ? undefined : write.value);
        }),
      };
    },
  };
}
