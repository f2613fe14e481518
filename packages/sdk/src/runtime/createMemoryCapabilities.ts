import { NoRecordedResponseError, SecretAccessError } from '../integration/errors.js';
import type {
  Capabilities,
  CapabilityFetchRequest,
  CapabilityFetchResponse,
  LogEntry,
} from './capabilities.js';
import { redactUrl } from './redact.js';
import { isAdminOnlySecret, resolveSecretTier } from './secretTiers.js';

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

/** In-memory capabilities plus what they recorded, for tests and the harness to inspect. */
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
      async set(scope, key, value) {
        state.storage[scope].set(key, clone(value));
      },
      async delete(scope, key) {
        state.storage[scope].delete(key);
      },
    },
    secrets: {
      async get(name) {
        return resolveSecretTier((tier) => state.secrets[tier].get(name));
      },
      async set(name, value) {
        if (isAdminOnlySecret((tier) => state.secrets[tier].has(name))) throw new SecretAccessError(name);
        state.secrets.account.set(name, value);
      },
    },
    log(entry) {
      state.logs.push(entry);
    },
  };
}
