import { SecretAccessError } from '@platform/sdk/integration';
import {
  type Capabilities,
  isAdminOnlySecret,
  redactText,
  redactUrl,
  resolveSecretTier,
  type SecretTier,
} from '@platform/sdk/runtime';
import { entryEgress } from '../fixtures/index.js';
import type { HarnessRegistryEntry } from '../types.js';
import type { HarnessApi } from './_harnessApi.js';

/** Both storage scopes of an integration at one moment. */
export interface StorageSnapshot {
  readonly account: Readonly<Record<string, unknown>>;
  readonly user: Readonly<Record<string, unknown>>;
}

/** Live capabilities plus what the routes read around a call. */
export interface LiveCapabilities extends Omit<Capabilities, 'log'> {
  snapshot(): Promise<StorageSnapshot>;
}

/**
 * The server-held live context's capabilities: the real network through `liveFetch` under the
 * entry's egress; storage and account-tier secrets in the live store (`.platform/live/store.json`);
 * admin-tier secrets (source/global) from `.platform/local-secrets.json`. Writes go straight to the
 * store, one at a time, so concurrent calls never lose each other's updates.
 * @example const capabilities = createLiveCapabilities(api, entry, { record: false });
 */
export function createLiveCapabilities(
  api: HarnessApi,
  entry: HarnessRegistryEntry,
  options: { readonly record: boolean },
): LiveCapabilities {
  const { slug } = entry;
  const store = api.liveStore;
  const knownSecrets = async (): Promise<string[]> => [
    ...Object.values(await api.localSecrets.read()),
    ...Object.values((await store.read(slug)).secrets.account),
  ];
  return {
    async fetch(request) {
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
      async get(scope, key) {
        const stored = (await store.read(slug)).storage[scope];
        return Object.hasOwn(stored, key) ? stored[key] : undefined;
      },
      async set(scope, key, value) {
        await store.update(slug, (state) => {
          state.storage[scope][key] = value;
        });
      },
      async delete(scope, key) {
        await store.update(slug, (state) => {
          delete state.storage[scope][key];
        });
      },
    },
    secrets: {
      async get(name) {
        const tiers = tiersOf((await store.read(slug)).secrets.account, await api.localSecrets.read());
        return resolveSecretTier((tier) =>
          Object.hasOwn(tiers[tier], name) ? tiers[tier][name] : undefined,
        );
      },
      async set(name, value) {
        const admin = await api.localSecrets.read();
        await store.update(slug, (state) => {
          refuseAdminOnlySecret(name, state.secrets.account, admin);
          state.secrets.account[name] = value;
        });
      },
    },
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
