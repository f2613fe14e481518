import {
  EgressDeniedError,
  MachineActorStorageError,
  NoRecordedResponseError,
  OAuthConnectionUnavailableError,
  SecretAccessError,
  StorageConflictError,
  StorageValidationError,
} from '../integration/errors.js';
import type { Capabilities, CapabilityFetchRequest, LogEntry, StorageScopeName } from './capabilities.js';

/** A thrown error as it crosses a JSON boundary (host to isolate): name, message and its properties. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly [property: string]: string | undefined;
}

// The properties the runtime error classes carry, besides name and message.
const PROPERTIES = [
  'code',
  'origin',
  'reason',
  'scope',
  'key',
  'hint',
  'secretName',
  'method',
  'url',
  'state',
] as const;

/**
 * An error as JSON data for the capability bridge: its name, message, and the runtime error
 * properties it has (strings only). The other side rebuilds it with {@link fromWireError}.
 * @example JSON.stringify({ ok: false, error: toWireError(error) })
 */
export function toWireError(thrown: unknown): WireError {
  if (typeof thrown !== 'object' || thrown === null) return { name: 'Error', message: String(thrown) };
  const error = thrown as Record<string, unknown>;
  const wire: Record<string, string> = {
    name: typeof error.name === 'string' ? error.name : 'Error',
    message: typeof error.message === 'string' ? error.message : String(thrown),
  };
  for (const property of PROPERTIES) {
    if (typeof error[property] === 'string') wire[property] = error[property];
  }
  return wire as WireError;
}

/**
 * The refusal of a storage key the definition does not declare: one error for the guest engine
 * and for the host, which checks again what reaches it from partner code.
 */
export function undeclaredStorageKeyError(scope: 'account' | 'user', key: string): StorageValidationError {
  return new StorageValidationError(
    scope,
    key,
    'this key is not declared',
    `Declare "${key}" under storage.${scope} in the definition before using it.`,
  );
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Rebuilds an error that crossed a boundary as this module's own runtime error class (so
 * `instanceof EgressDeniedError` holds in partner code, which imports this same copy of the sdk),
 * with its code and properties; any other error keeps its name and message.
 * @example catch (error) { throw fromWireError(error); }
 */
export function fromWireError(thrown: unknown): unknown {
  if (typeof thrown !== 'object' || thrown === null) return thrown;
  const wire = thrown as Record<string, unknown>;
  const message = text(wire.message);
  let rebuilt: Error;
  switch (wire.name) {
    case 'EgressDeniedError':
      if (thrown instanceof EgressDeniedError) return thrown;
      rebuilt = new EgressDeniedError(
        text(wire.origin),
        message,
        typeof wire.reason === 'string' ? wire.reason : undefined,
      );
      break;
    case 'StorageValidationError':
      if (thrown instanceof StorageValidationError) return thrown;
      rebuilt = new StorageValidationError(
        wire.scope === 'user' ? 'user' : 'account',
        text(wire.key),
        '',
        text(wire.hint),
      );
      break;
    case 'StorageConflictError':
      if (thrown instanceof StorageConflictError) return thrown;
      rebuilt = new StorageConflictError(wire.scope === 'user' ? 'user' : 'account', text(wire.key));
      break;
    case 'SecretAccessError':
      if (thrown instanceof SecretAccessError) return thrown;
      rebuilt = new SecretAccessError(text(wire.secretName), message);
      break;
    case 'MachineActorStorageError':
      if (thrown instanceof MachineActorStorageError) return thrown;
      rebuilt = new MachineActorStorageError();
      break;
    case 'NoRecordedResponseError':
      if (thrown instanceof NoRecordedResponseError) return thrown;
      rebuilt = new NoRecordedResponseError(text(wire.method), text(wire.url), '');
      break;
    case 'OAuthConnectionUnavailableError':
      if (thrown instanceof OAuthConnectionUnavailableError) return thrown;
      rebuilt = new OAuthConnectionUnavailableError(
        wire.state === 'exhausted' || wire.state === 'revoked' ? wire.state : 'backoff',
      );
      break;
    case 'TypeError':
      // fetch's class for a network failure: kept, so retry logic can tell one from a refusal.
      if (thrown instanceof TypeError) return thrown;
      rebuilt = new TypeError(message);
      break;
    default:
      return thrown;
  }
  if (message !== '') rebuilt.message = message;
  return rebuilt;
}

const rethrow = (error: unknown): never => {
  throw fromWireError(error);
};

type StorageCapability = Capabilities['storage'];
type SecretsCapability = Capabilities['secrets'];

// Classes rather than closures: one context is built per call, and this stays off its cost.
class RebuiltStorage implements StorageCapability {
  readonly #inner: StorageCapability;
  constructor(inner: StorageCapability) {
    this.#inner = inner;
  }
  get(scope: StorageScopeName, key: string) {
    return this.#inner.get(scope, key).catch(rethrow);
  }
  set(scope: StorageScopeName, key: string, value: unknown) {
    return this.#inner.set(scope, key, value).catch(rethrow);
  }
  delete(scope: StorageScopeName, key: string) {
    return this.#inner.delete(scope, key).catch(rethrow);
  }
}

class RebuiltSecrets implements SecretsCapability {
  readonly #inner: SecretsCapability;
  constructor(inner: SecretsCapability) {
    this.#inner = inner;
  }
  get(name: string) {
    return this.#inner.get(name).catch(rethrow);
  }
  set(name: string, value: string) {
    return this.#inner.set(name, value).catch(rethrow);
  }
}

class RebuiltCapabilities implements Capabilities {
  readonly storage: StorageCapability;
  readonly secrets: SecretsCapability;
  readonly #inner: Capabilities;
  constructor(inner: Capabilities) {
    this.#inner = inner;
    this.storage = new RebuiltStorage(inner.storage);
    this.secrets = new RebuiltSecrets(inner.secrets);
  }
  fetch(request: CapabilityFetchRequest) {
    return this.#inner.fetch(request).catch(rethrow);
  }
  log(entry: LogEntry) {
    this.#inner.log(entry);
  }
  checkpoint() {
    return this.#inner.checkpoint().catch(rethrow);
  }
}

/**
 * Capabilities whose failures are rebuilt with {@link fromWireError}: what the guest engine puts
 * between a context and capabilities that may live across a boundary (an isolate's bridge, or
 * the host's own copy of the sdk next to a bundle's).
 */
export function withRuntimeErrors(capabilities: Capabilities): Capabilities {
  return new RebuiltCapabilities(capabilities);
}
