import { SecretAccessError, type StorageConflictError } from '@platform/sdk/integration';
import {
  attachesConnectionAuthorization,
  type Capabilities,
  connectionAuthorization,
  createStorageTransaction,
  isAdminOnlySecret,
  type JsonStorageState,
  jsonCommitTarget,
  redactText,
  redactUrl,
  resolveSecretTier,
  type SecretTier,
} from '@platform/sdk/runtime';
import { entryEgress } from '../fixtures/index.js';
import type { HarnessRegistryEntry } from '../types.js';
import type { HarnessApi } from './_harnessApi.js';
import type { LiveIntegrationState } from './liveStore.js';

/** Both storage scopes of an integration at one moment. */
export interface StorageSnapshot {
  readonly account: Readonly<Record<string, unknown>>;
  readonly user: Readonly<Record<string, unknown>>;
}

/** One call's live capabilities plus what the routes do around it. */
export interface LiveCapabilities extends Omit<Capabilities, 'log'> {
  snapshot(): Promise<StorageSnapshot>;
  /**
   * Saves the call's writes (after its handler succeeded) in one live-store update, under the
   * conflict rule; `also` edits the same update (the OAuth loop's connection). Throws
   * `StorageConflictError` and saves nothing when another call changed a key this one read.
   */
  commit(also?: (state: LiveIntegrationState) => void): Promise<void>;
  /** The conflict a checkpoint or the commit found, if any. */
  conflict(): StorageConflictError | undefined;
}

/**
 * The server-held live context's capabilities for one call: the real network through `liveFetch`
 * under the entry's egress; storage and account-tier secrets in the live store
 * (`.platform/live/store.json`); admin-tier secrets (source/global) from
 * `.platform/local-secrets.json`. As on the host, writes are held until `commit()` (or
 * `ctx.checkpoint()`) and saved only if every key the call read is unchanged (the sdk's
 * `storageTransaction.ts`, versions kept by the live store), so concurrent calls never lose each
 * other's updates and a failed call leaves nothing after its last checkpoint.
 * @example const live = createLiveCapabilities(api, entry, { record: false }); ...; if (ok) await live.commit();
 */
export function createLiveCapabilities(
  api: HarnessApi,
  entry: HarnessRegistryEntry,
  options: { readonly record: boolean },
): LiveCapabilities {
  const { slug } = entry;
  const store = api.liveStore;
  const versions = store.versions(slug);
  const knownSecrets = async (): Promise<string[]> => [
    ...Object.values(await api.localSecrets.read()),
    ...Object.values((await store.read(slug)).secrets.account),
  ];
  const storage = createStorageTransaction({
    load: async (ref) => {
      const stored = (await store.read(slug)).storage[ref.scope];
      const value = Object.hasOwn(stored, ref.key) ? stored[ref.key] : undefined;
      return { value, version: versions.versionOf(ref, value) };
    },
  });
  const secretWrites = new Map<string, string>();
  const save = (also?: (state: LiveIntegrationState) => void) => {
    const secrets = [...secretWrites];
    return storage.commit((apply) =>
      store.update(slug, async (state) => {
        const held: JsonStorageState = {
          get: (ref) =>
            Object.hasOwn(state.storage[ref.scope], ref.key) ? state.storage[ref.scope][ref.key] : undefined,
          set: (ref, value) => {
            state.storage[ref.scope][ref.key] = value;
          },
          delete: (ref) => {
            delete state.storage[ref.scope][ref.key];
          },
        };
        await apply(jsonCommitTarget(held, versions));
        if (secrets.length > 0) {
          const admin = await api.localSecrets.read();
          for (const [name, value] of secrets) {
            refuseAdminOnlySecret(name, state.secrets.account, admin);
            state.secrets.account[name] = value;
          }
        }
        also?.(state);
        for (const [name, value] of secrets) if (secretWrites.get(name) === value) secretWrites.delete(name);
      }),
    );
  };
  return {
    async fetch(asked) {
      // As on the host: the connection's Authorization for its declared origins, from the live store.
      const connection = entry.definition?.connection;
      let request = asked;
      if (connection !== undefined && attachesConnectionAuthorization(connection, asked.url, asked.headers)) {
        const stored = (await store.read(slug)).secrets.account;
        if (connection.fields.every((field) => Object.hasOwn(stored, field.name))) {
          request = {
            ...asked,
            headers: [...asked.headers, ['authorization', connectionAuthorization(connection, stored)]],
          };
        }
      }
      let response: Awaited<ReturnType<Capabilities['fetch']>>;
      try {
        response = await api.liveFetch(request, entryEgress(entry));
      } catch (error) {
        if (error instanceof Error && error.name === 'EgressDeniedError') {
          api.log(
            `[harness] refused live ${request.method.toUpperCase()} ${redactUrl(request.url)}: ${redactText(error.message)}`,
          );
        }
        throw error;
      }
      if (options.record) await api.recorder.record(slug, request, response, await knownSecrets());
      return response;
    },
    storage: {
      get: async (scope, key) => storage.get(scope, key),
      set: async (scope, key, value) => storage.set(scope, key, value),
      delete: async (scope, key) => storage.delete(scope, key),
    },
    secrets: {
      async get(name) {
        const written = secretWrites.get(name);
        if (written !== undefined) return written;
        const tiers = tiersOf((await store.read(slug)).secrets.account, await api.localSecrets.read());
        return resolveSecretTier((tier) =>
          Object.hasOwn(tiers[tier], name) ? tiers[tier][name] : undefined,
        );
      },
      async set(name, value) {
        refuseAdminOnlySecret(name, (await store.read(slug)).secrets.account, await api.localSecrets.read());
        secretWrites.set(name, value);
      },
    },
    checkpoint: () => save(),
    commit: (also) => save(also),
    conflict: () => storage.conflict,
    async snapshot() {
      const { storage } = await store.read(slug);
      return { account: storage.account, user: storage.user };
    },
  };
}

/**
 * `ctx.secrets.set`'s rule in the harness: a name the admin tiers hold (the local secrets file) is
 * not the handler's to overwrite; throws `SecretAccessError` for it.
 */
export function refuseAdminOnlySecret(
  name: string,
  account: Readonly<Record<string, string>>,
  local: Readonly<Record<string, string>>,
): void {
  const tiers = tiersOf(account, local);
  if (isAdminOnlySecret((tier) => Object.hasOwn(tiers[tier], name))) throw new SecretAccessError(name);
}

/** The harness's tiers: the live store's account secrets; the local secrets file stands for the admin's (source) tier. */
function tiersOf(
  account: Readonly<Record<string, string>>,
  local: Readonly<Record<string, string>>,
): Record<SecretTier, Readonly<Record<string, string>>> {
  return { account, source: local, global: {} };
}
