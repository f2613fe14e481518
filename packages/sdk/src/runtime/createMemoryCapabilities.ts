import {
  NoRecordedResponseError,
  SecretAccessError,
  type StorageConflictError,
} from '../integration/errors.js';
import type {
  Capabilities,
  CapabilityFetchRequest,
  CapabilityFetchResponse,
  LogEntry,
} from './capabilities.js';
import { redactUrl } from './redact.js';
import { isAdminOnlySecret, resolveSecretTier } from './secretTiers.js';
import {
  createJsonVersions,
  createStorageTransaction,
  type JsonStorageState,
  jsonCommitTarget,
} from './storageTransaction.js';

export interface MemoryCapabilitiesOptions {
  /** Initial stored values (validated on read, like real stored data). */
  readonly storage?: {
    readonly account?: Readonly<Record<string, unknown>>;
    readonly user?: Readonly<Record<string, unknown>>;
  };
  readonly secrets?: {
    readonly account?: Readonly<Record<string, string>>;
    readonly source?: Readonly<Record<string, string>>;
    readonly global?: Readonly<Record<string, string>>;
  };
  /** Answers one hop; the default refuses every request with `NoRecordedResponseError`. */
  readonly fetch?: (request: CapabilityFetchRequest) => Promise<CapabilityFetchResponse>;
}

/**
 * One call over memory capabilities, as the host runs every call: reads tracked, storage and
 * secret writes held until `checkpoint()` or `commit()`, both under the conflict rule of
 * `storageTransaction.ts`. A call that is never committed leaves nothing behind.
 */
export interface MemoryCall {
  readonly storage: Capabilities['storage'];
  readonly secrets: Capabilities['secrets'];
  checkpoint(): Promise<void>;
  /** Saves the call's writes (after the handler succeeded); throws `StorageConflictError` on a conflict. */
  commit(): Promise<void>;
  /** The conflict a checkpoint or commit of this call found, if any. */
  readonly conflict: StorageConflictError | undefined;
}

/**
 * In-memory capabilities plus what they recorded, for tests and the harness to inspect. Used
 * directly, every storage and secret write is saved at once (`checkpoint()` has nothing to do), so
 * `createMockContext`'s state shows each write; `openCall()` gives a call the host's all-or-nothing
 * writes and conflict checks over the same state.
 */
export interface MemoryCapabilities extends Capabilities {
  readonly state: {
    readonly storage: { readonly account: Map<string, unknown>; readonly user: Map<string, unknown> };
    readonly secrets: {
      readonly account: Map<string, string>;
      readonly source: ReadonlyMap<string, string>;
      readonly global: ReadonlyMap<string, string>;
    };
    readonly logs: LogEntry[];
    readonly requests: CapabilityFetchRequest[];
  };
  /** A call with its own reads and held writes over this state (see {@link MemoryCall}). */
  openCall(): MemoryCall;
}

/**
 * Capabilities held in memory with the host's rules: secret tiers resolve account, source, global;
 * writes go to the account tier and are refused for admin-only names; nothing reaches the network.
 * @example const capabilities = createMemoryCapabilities({ secrets: { global: { ACME_CLIENT_ID: 'id' } } });
 */
export function createMemoryCapabilities(options: MemoryCapabilitiesOptions = {}): MemoryCapabilities {
  const clone = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));
  const state: MemoryCapabilities['state'] = {
    storage: {
      account: new Map(
        Object.entries(options.storage?.account ?? {}).map(([key, value]) => [key, clone(value)]),
      ),
      user: new Map(Object.entries(options.storage?.user ?? {}).map(([key, value]) => [key, clone(value)])),
    },
    secrets: {
      account: new Map(Object.entries(options.secrets?.account ?? {})),
      source: new Map(Object.entries(options.secrets?.source ?? {})),
      global: new Map(Object.entries(options.secrets?.global ?? {})),
    },
    logs: [],
    requests: [],
  };
  const respond =
    options.fetch ??
    (async (request: CapabilityFetchRequest): Promise<CapabilityFetchResponse> => {
      throw new NoRecordedResponseError(
        request.method,
        redactUrl(request.url),
        'Provide a fetch handler for it.',
      );
    });

  // Versions change with every write, and with any direct edit of `state.storage` (tests seed it).
  const versions = createJsonVersions();
  const stored: JsonStorageState = {
    get: (ref) => state.storage[ref.scope].get(ref.key),
    set: (ref, value) => state.storage[ref.scope].set(ref.key, value),
    delete: (ref) => state.storage[ref.scope].delete(ref.key),
  };
  // Commits (and direct writes) one at a time: a check and its writes are never split by another write.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(run: () => T | Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => {});
    return next;
  };
  const setSecret = (name: string, value: string) => {
    if (isAdminOnlySecret((tier) => state.secrets[tier].has(name))) throw new SecretAccessError(name);
    state.secrets.account.set(name, value);
  };
  const resolveSecret = (name: string) => resolveSecretTier((tier) => state.secrets[tier].get(name));

  function openCall(): MemoryCall {
    const transaction = createStorageTransaction({
      load: async (ref) => {
        const value = stored.get(ref);
        return { value: clone(value), version: versions.versionOf(ref, value) };
      },
    });
    const secretWrites = new Map<string, string>();
    const save = () =>
      transaction.commit((apply) =>
        serialized(async () => {
          await apply(jsonCommitTarget(stored, versions));
          for (const [name, value] of secretWrites) setSecret(name, value);
          secretWrites.clear();
        }),
      );
    return {
      storage: {
        get: async (scope, key) => transaction.get(scope, key),
        set: async (scope, key, value) => transaction.set(scope, key, value),
        delete: async (scope, key) => transaction.delete(scope, key),
      },
      secrets: {
        get: async (name) => secretWrites.get(name) ?? resolveSecret(name),
        async set(name, value) {
          if (isAdminOnlySecret((tier) => state.secrets[tier].has(name))) throw new SecretAccessError(name);
          secretWrites.set(name, value);
        },
      },
      checkpoint: save,
      commit: save,
      get conflict() {
        return transaction.conflict;
      },
    };
  }

  return {
    state,
    async fetch(request) {
      state.requests.push(request);
      return respond(request);
    },
    storage: {
      async get(scope, key) {
        return clone(state.storage[scope].get(key));
      },
      set(scope, key, value) {
        return serialized(() => {
          state.storage[scope].set(key, clone(value));
          versions.wrote({ scope, key }, value);
        });
      },
      delete(scope, key) {
        return serialized(() => {
          state.storage[scope].delete(key);
          versions.wrote({ scope, key }, undefined);
        });
      },
    },
    secrets: {
      async get(name) {
        return resolveSecret(name);
      },
      async set(name, value) {
        setSecret(name, value);
      },
    },
    log(entry) {
      state.logs.push(entry);
    },
    // Every write above is saved at once: nothing is held.
    async checkpoint() {},
    openCall,
  };
}
