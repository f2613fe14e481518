import {
  EgressDeniedError,
  MachineActorStorageError,
  SecretAccessError,
  type StorageConflictError,
} from '@platform/sdk/integration';
import {
  attachesConnectionAuthorization,
  type Capabilities,
  type CapabilityFetchRequest,
  createStorageTransaction,
  isAdminOnlySecret,
  type LogEntry,
  type StorageCommitTarget,
  type StorageRef,
  storageRefId,
  undeclaredStorageKeyError,
} from '@platform/sdk/runtime';
import type { EgressFetch } from '@platform/sdk/server';
import type { Db, Queryable } from '../db/Db.js';
import type { SecretBox } from '../secrets/SecretBox.js';
import { readSecret, type SecretScope, secretTiers, writeSecret } from '../store/secrets.js';
import {
  applyStoragePlan,
  readVersionedStorage,
  type StoredKey,
  type VersionedStorageValue,
} from '../store/storage.js';

export interface HostCallScope {
  readonly db: Db;
  readonly slug: string;
  readonly accountId: string;
  readonly sourceId: string;
  /** The signed-in user; undefined for machine actors. */
  readonly userId: string | undefined;
  readonly egress: readonly string[];
  /** The storage keys the version declares, by scope: no other key is read or written. */
  readonly storageKeys: { readonly account: readonly string[]; readonly user: readonly string[] };
  readonly secretBox: SecretBox;
  readonly fetch: EgressFetch;
  /** Partner log lines; the host's `log` must redact and budget them (see createPartnerLog.ts). */
  readonly log: (entry: LogEntry) => void;
  /**
   * Told when `fetch` refuses an allowlisted name (or literal) for a non-public address, before the
   * same error is thrown to the guest: the place for the `egress_private_address` security event.
   */
  readonly onPrivateAddress?: (error: EgressDeniedError) => void;
  /**
   * Runs in every save's transaction after the writes; `final`: the save after the handler
   * succeeded, not a checkpoint. A job adds its success mark to the final save and checks its
   * lease on a checkpoint; a throw rolls the save back and reaches the caller.
   */
  readonly onSave?: (tx: Queryable, final: boolean) => Promise<void>;
  /**
   * Runs instead of the final save's transaction when the call has nothing to write (no storage,
   * no secret): a job records its success through the group commit of outcomes then, not in a
   * transaction of its own. Absent: such a save runs `onSave` in a transaction as any other.
   */
  readonly onFinalWithoutWrites?: () => Promise<void>;
  /**
   * A call's first read of a key outside a transaction (read ahead or asked for): the host's
   * `services.storageReads`, which sends the reads of calls running at the same moment in one
   * statement. Absent: one `readVersionedStorage` on `db` per key.
   */
  readonly readStorage?: (at: StoredKey) => Promise<VersionedStorageValue>;
  /**
   * The account's OAuth connection, for an integration that declares `oauth` (callCapabilities
   * builds it over src/oauth/connectionFetch.ts): `ctx.fetch` asks it about every request that
   * bears a bearer token, and once per call after a 401 to such a request.
   */
  readonly oauthConnection?: OAuthConnectionHooks;
  /**
   * The `Authorization` of a connection of kind apiKey or basic that declares
   * `authorization.origins` (callCapabilities builds it over src/connection/fieldConnection.ts):
   * `ctx.fetch` attaches it to a request for one of `origins` that carries no `Authorization` of
   * its own. `value` is asked once per call; undefined (fields not entered) attaches nothing.
   */
  readonly connectionAuthorization?: {
    readonly origins: readonly string[];
    value(): Promise<string | undefined>;
  };
}

/** How `ctx.fetch` uses the account's OAuth connection (see `HostCallScope.oauthConnection`). */
export interface OAuthConnectionHooks {
  /** Throws `OAuthConnectionUnavailableError` when `bearer` is the connection's token and it is exhausted or revoked. */
  check(bearer: string): Promise<void>;
  /**
   * After a 401 to a request bearing `bearer`: the connection's new access token (refreshed now,
   * or already by another call), or undefined when `bearer` is not the connection's token (the 401
   * is the handler's); throws `OAuthConnectionUnavailableError` when it cannot be refreshed.
   */
  refreshAfter401(bearer: string): Promise<string | undefined>;
}

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
function bearerOf(request: CapabilityFetchRequest): string | undefined {
  const header = request.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** One call's capabilities and how its writes are saved. */
export interface HostCall {
  readonly capabilities: Capabilities;
  /** Saves the call's writes after its handler succeeded; throws `StorageConflictError` on a conflict. */
  commit(): Promise<void>;
  /** The conflict a checkpoint or the commit found, if any: the call has to run again. */
  conflict(): StorageConflictError | undefined;
}

/**
 * Capabilities of one call, scoped to one integration and account (and user). Storage and secret
 * writes are held until `commit()` (or the handler's `ctx.checkpoint()`), which saves them in one
 * transaction only if every key the call read still has the version it read (the rule and its
 * bookkeeping: the sdk's `storageTransaction.ts`); a handler that throws (or times out) leaves
 * nothing behind after its last checkpoint, and no transaction is held open while partner code runs.
 * @example const { capabilities, commit } = createHostCapabilities(scope); ...; if (ok) await commit();
 */
export function createHostCapabilities(scope: HostCallScope): HostCall {
  const secretWrites = new Map<string, string>();
  const secretScope: SecretScope = { slug: scope.slug, accountId: scope.accountId, sourceId: scope.sourceId };
  // The guest engine checks scope, key and actor already; the host does not rely on it.
  const location = (storageScope: 'account' | 'user', key: string): StoredKey => {
    if (storageScope !== 'account' && storageScope !== 'user') {
      throw new TypeError(
        `storage scope must be "account" or "user"; received ${JSON.stringify(storageScope)}`,
      );
    }
    if (typeof key !== 'string' || !scope.storageKeys[storageScope].includes(key)) {
      throw undeclaredStorageKeyError(storageScope, String(key));
    }
    if (storageScope === 'user' && scope.userId === undefined) throw new MachineActorStorageError();
    return {
      slug: scope.slug,
      accountId: scope.accountId,
      scope: storageScope,
      userId: storageScope === 'user' ? scope.userId! : '',
      key,
    };
  };
  const at = (ref: StorageRef) => location(ref.scope, ref.key);
  const read = scope.readStorage ?? ((key: StoredKey) => readVersionedStorage(scope.db, key));
  // Values read ahead of the call (`preload`), by scope and key, until used or asked for.
  const preloaded = new Map<string, VersionedStorageValue>();
  const takePreloaded = (ref: StorageRef) => {
    const id = storageRefId(ref);
    const found = preloaded.get(id);
    if (found !== undefined) preloaded.delete(id);
    return found;
  };
  const storage = createStorageTransaction({
    load: (ref) => {
      const found = takePreloaded(ref);
      return found === undefined ? read(at(ref)) : Promise.resolve(found);
    },
  });
  const target = (tx: Queryable): StorageCommitTarget => ({
    async apply(plan) {
      const outcome = await applyStoragePlan(tx, {
        checks: plan.checks.map((check) => ({ ...at(check), version: check.version })),
        saves: plan.writes.map((write) => ({
          ...at(write),
          value: write.deleted ? undefined : write.value,
          expected: write.expected,
        })),
      });
      if (outcome.ok) return outcome;
      const { in: list, index } = outcome.changed;
      return { ok: false, changed: (list === 'checks' ? plan.checks : plan.writes)[index]! };
    },
  });

  async function save(final: boolean): Promise<void> {
    if (!storage.hasWrites && secretWrites.size === 0) {
      if (storage.conflict !== undefined) throw storage.conflict;
      if (final && scope.onFinalWithoutWrites !== undefined) return scope.onFinalWithoutWrites();
      if (scope.onSave === undefined) return;
    }
    const secrets = [...secretWrites];
    await storage.commit((apply) =>
      scope.db.transaction(async (tx) => {
        await apply(target(tx));
        for (const [name, value] of secrets) {
          await writeSecret(tx, scope.secretBox, { scope: secretScope, tier: 'account', name, value });
        }
        await scope.onSave?.(tx, final);
      }),
    );
    // A secret written again while this save ran stays pending.
    for (const [name, value] of secrets) if (secretWrites.get(name) === value) secretWrites.delete(name);
  }

  const send = async (request: CapabilityFetchRequest) => {
    try {
      return await scope.fetch(request, scope.egress);
    } catch (error) {
      if (error instanceof EgressDeniedError && error.reason === 'private-address') {
        scope.onPrivateAddress?.(error);
      }
      throw error;
    }
  };
  // A call refreshes its connection once at most, whatever number of 401s it meets.
  let refreshedOn401 = false;
  let authorization: Promise<string | undefined> | undefined;
  const withConnectionAuthorization = async (
    request: CapabilityFetchRequest,
  ): Promise<CapabilityFetchRequest> => {
    const declared = scope.connectionAuthorization;
    if (declared === undefined) return request;
    if (!attachesConnectionAuthorization({ authorization: declared }, request.url, request.headers))
      return request;
    authorization ??= declared.value();
    const value = await authorization;
    return value === undefined
      ? request
      : { ...request, headers: [...request.headers, ['authorization', value]] };
  };

  const capabilities: Capabilities = {
    async fetch(asked) {
      const request = await withConnectionAuthorization(asked);
      const connection = scope.oauthConnection;
      const bearer = connection === undefined ? undefined : bearerOf(request);
      if (connection === undefined || bearer === undefined) return send(request);
      await connection.check(bearer);
      const response = await send(request);
      if (response.status !== 401 || refreshedOn401) return response;
      refreshedOn401 = true;
      const fresh = await connection.refreshAfter401(bearer);
      if (fresh === undefined) return response;
      // The one retry carries the new token in place of the stale one, nothing else changed.
      return send({
        ...request,
        headers: request.headers.map(([name, value]): [string, string] =>
          name.toLowerCase() === 'authorization' ? [name, `Bearer ${fresh}`] : [name, value],
        ),
      });
    },
    storage: {
      async get(storageScope, key) {
        location(storageScope, key);
        return storage.get(storageScope, key);
      },
      async set(storageScope, key, value) {
        location(storageScope, key);
        storage.set(storageScope, key, value);
      },
      async delete(storageScope, key) {
        location(storageScope, key);
        storage.delete(storageScope, key);
      },
      // Keys the guest is likely to read (the runtime names those it read last time): a key this
      // call may not read (undeclared, user storage without a user) is left out, not refused.
      async preload(refs) {
        const wanted = refs.flatMap((ref) => {
          try {
            return [{ ref, key: at(ref) }];
          } catch {
            return [];
          }
        });
        const values = await Promise.all(wanted.map(({ key }) => read(key)));
        return wanted.map(({ ref }, index) => {
          const loaded = values[index]!;
          preloaded.set(storageRefId(ref), loaded);
          return loaded.value === undefined
            ? { scope: ref.scope, key: ref.key }
            : { scope: ref.scope, key: ref.key, value: loaded.value };
        });
      },
      // The guest's word, like anything from it: it can only name values preloaded for this call,
      // and only make its own call check more keys at commit (or fewer, as blind writes may).
      preloadUsed(refs) {
        for (const ref of refs) {
          const found = takePreloaded(ref);
          if (found !== undefined) storage.noteRead(ref.scope, ref.key, found);
        }
      },
      reads: () => storage.reads,
    },
    secrets: {
      async get(name) {
        return secretWrites.get(name) ?? readSecret(scope.db, scope.secretBox, secretScope, name);
      },
      async set(name, value) {
        if (!secretWrites.has(name)) {
          const tiers = await secretTiers(scope.db, secretScope, name);
          if (isAdminOnlySecret((tier) => tiers.has(tier))) throw new SecretAccessError(name);
        }
        secretWrites.set(name, value);
      },
    },
    log: scope.log,
    checkpoint: () => save(false),
  };

  return { capabilities, commit: () => save(true), conflict: () => storage.conflict };
}
