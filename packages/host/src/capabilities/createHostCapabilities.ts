import { SecretAccessError } from '@platform/sdk/integration';
import type { Capabilities, LogEntry } from '@platform/sdk/runtime';
import type { Db } from '../db/Db.js';
import type { HostFetch } from '../egress/HostFetch.js';
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
  readonly secretBox: SecretBox;
  readonly fetch: HostFetch;
  readonly log: (entry: LogEntry) => void;
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
  const location = (storageScope: 'account' | 'user'): StorageLocation => {
    if (storageScope === 'user' && scope.userId === undefined) {
      // The guest refuses this already; the host does not rely on it.
      throw new Error('user storage is unavailable to machine actors');
    }
    return {
      slug: scope.slug,
      accountId: scope.accountId,
      scope: storageScope,
      userId: storageScope === 'user' ? scope.userId! : '',
    };
  };
  const pendingKey = (storageScope: string, key: string) => `${storageScope}\n${key}`;

  const capabilities: Capabilities = {
    fetch: (request) => scope.fetch(request, scope.egress),
    storage: {
      async get(storageScope, key) {
        const pending = storageWrites.get(pendingKey(storageScope, key));
        if (pending !== undefined) return 'deleted' in pending ? undefined : structuredClone(pending.value);
        return (await readStorage(scope.db, location(storageScope), [key])).get(key);
      },
      async set(storageScope, key, value) {
        location(storageScope);
        storageWrites.set(pendingKey(storageScope, key), { value: structuredClone(value) });
      },
      async delete(storageScope, key) {
        location(storageScope);
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
          if (!tiers.has('account') && (tiers.has('source') || tiers.has('global')))
            throw new SecretAccessError(name);
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
        if ('deleted' in write) await deleteStorage(tx, location(storageScope), key);
        else await writeStorage(tx, location(storageScope), key, write.value);
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
