import { EgressDeniedError, MachineActorStorageError, SecretAccessError } from '@platform/sdk/integration';
import {
  type Capabilities,
  isAdminOnlySecret,
  type LogEntry,
  undeclaredStorageKeyError,
} from '@platform/sdk/runtime';
import type { EgressFetch } from '@platform/sdk/server';
import type { Db } from '../db/Db.js';
import type { SecretBox } from '../secrets/SecretBox.js';
import { readSecret, type SecretScope, secretTiers, writeSecret } from '../store/secrets.js';
import { deleteStorage, readStorage, type StorageLocation, writeStorage } from '../store/storage.js';

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
}

type Pending = { readonly value: unknown } | { readonly deleted: true };

/**
 * Capabilities of one call, scoped to one integration and account (and user). Storage and secret
 * writes are held until `commit()`, which applies them in one transaction: a handler that throws
 * (or times out) leaves nothing behind, and no transaction is held open while partner code runs.
 * @example const { capabilities, commit } = createHostCapabilities(scope); ...; if (ok) await commit();
 */
export function createHostCapabilities(scope: HostCallScope): {
  capabilities: Capabilities;
  commit(): Promise<void>;
} {
  const storageWrites = new Map<string, Pending>();
  const secretWrites = new Map<string, string>();
  const secretScope: SecretScope = { slug: scope.slug, accountId: scope.accountId, sourceId: scope.sourceId };
  // The guest engine checks scope, key and actor already; the host does not rely on it.
  const location = (storageScope: 'account' | 'user', key: string): StorageLocation => {
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
    };
  };
  const pendingKey = (storageScope: string, key: string) => `${storageScope}\n${key}`;

  const capabilities: Capabilities = {
    async fetch(request) {
      try {
        return await scope.fetch(request, scope.egress);
      } catch (error) {
        if (error instanceof EgressDeniedError && error.reason === 'private-address') {
          scope.onPrivateAddress?.(error);
        }
        throw error;
      }
    },
    storage: {
      async get(storageScope, key) {
        const at = location(storageScope, key);
        const pending = storageWrites.get(pendingKey(storageScope, key));
        if (pending !== undefined) return 'deleted' in pending ? undefined : structuredClone(pending.value);
        return (await readStorage(scope.db, at, [key])).get(key);
      },
      async set(storageScope, key, value) {
        location(storageScope, key);
        storageWrites.set(pendingKey(storageScope, key), { value: structuredClone(value) });
      },
      async delete(storageScope, key) {
        location(storageScope, key);
        storageWrites.set(pendingKey(storageScope, key), { deleted: true });
      },
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
  };

  async function commit(): Promise<void> {
    if (storageWrites.size === 0 && secretWrites.size === 0) return;
    await scope.db.transaction(async (tx) => {
      for (const [pending, write] of storageWrites) {
        const [storageScope, key] = pending.split('\n') as ['account' | 'user', string];
        if ('deleted' in write) await deleteStorage(tx, location(storageScope, key), key);
        else await writeStorage(tx, location(storageScope, key), key, write.value);
      }
      for (const [name, value] of secretWrites) {
        await writeSecret(tx, scope.secretBox, { scope: secretScope, tier: 'account', name, value });
      }
    });
    storageWrites.clear();
    secretWrites.clear();
  }

  return { capabilities, commit };
}
