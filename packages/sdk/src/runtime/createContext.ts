import { MachineActorStorageError, StorageValidationError } from '../integration/errors.js';
import type {
  Actor,
  AnyIntegrationDefinition,
  IntegrationContext,
  Logger,
  LogLevel,
  Secrets,
  StorageScope,
} from '../integration/types.js';
import { describeIssues, validateWith } from './_validate.js';
import type { Capabilities, StorageScopeName } from './capabilities.js';
import { createGuestFetch } from './createGuestFetch.js';
import { redactFields, redactText } from './redact.js';
import { undeclaredStorageKeyError, withRuntimeErrors } from './runtimeErrors.js';

export interface CreateContextOptions {
  readonly definition: AnyIntegrationDefinition;
  readonly capabilities: Capabilities;
  readonly actor: Actor;
  /** Redirect hops `ctx.fetch` follows. Default 5. */
  readonly maxRedirects?: number;
  /** When the call's time budget ends (ms since the epoch), for `ctx.remainingMs()`; none: `Infinity`. */
  readonly deadline?: number;
}

/**
 * Builds the `ctx` handlers receive over a set of capabilities, with the spec's rules: declared
 * storage keys only, values validated on write and on read, `ctx.storage.user` refused for machine
 * actors, `ctx.fetch` held to egress, logs redacted.
 * @example const ctx = createContext({ definition, capabilities, actor: { kind: 'machine', accountId } });
 */
export function createContext(options: CreateContextOptions): IntegrationContext {
  const { definition, actor } = options;
  // Failures of capabilities across a boundary become this copy's error classes, code and all.
  const capabilities = withRuntimeErrors(options.capabilities);
  const account = createStorageScope(definition, capabilities, 'account');
  const user = actor.kind === 'machine' ? undefined : createStorageScope(definition, capabilities, 'user');
  const storage = Object.freeze({
    account,
    get user(): StorageScope<Record<string, never>> {
      if (user === undefined) throw new MachineActorStorageError();
      return user;
    },
  });
  return Object.freeze({
    fetch: createGuestFetch({
      egress: definition.egress ?? [],
      capabilities,
      ...(options.maxRedirects === undefined ? {} : { maxRedirects: options.maxRedirects }),
      userAgent: userAgentOf(definition),
    }),
    storage: storage as IntegrationContext['storage'],
    secrets: createSecrets(capabilities),
    logger: createLogger(capabilities),
    actor: Object.freeze({ ...actor }),
    checkpoint: () => capabilities.checkpoint(),
    remainingMs: remainingMsUntil(options.deadline),
  });
}

// Vendors log and rate-limit by User-Agent (GitHub refuses requests without one): name the integration.
function userAgentOf(definition: AnyIntegrationDefinition): string {
  return `platform-integration/${definition.slug}`;
}

function remainingMsUntil(deadline: number | undefined): () => number {
  if (deadline === undefined || !Number.isFinite(deadline)) return () => Number.POSITIVE_INFINITY;
  return () => Math.max(0, deadline - Date.now());
}

function createStorageScope(
  definition: AnyIntegrationDefinition,
  capabilities: Capabilities,
  scope: StorageScopeName,
): StorageScope<Record<string, never>> {
  const schemas = definition.storage?.[scope] ?? {};
  const schemaFor = (key: string) => {
    if (typeof key === 'string' && Object.hasOwn(schemas, key)) return schemas[key]!;
    throw undeclaredStorageKeyError(scope, String(key));
  };
  const read = async (key: string): Promise<unknown> => {
    const schema = schemaFor(key);
    const stored = await capabilities.storage.get(scope, key);
    if (stored === undefined) return undefined;
    const result = await validateWith(schema, stored);
    if (!result.ok) {
      throw new StorageValidationError(
        scope,
        key,
        `stored data no longer matches the key's schema (${describeIssues(result.issues)})`,
        'Widen the schema with a union, make new fields optional, or write the data under a new key.',
      );
    }
    return result.value;
  };
  // Answers the value as a later read returns it (the schema's output of the JSON form).
  const write = async (key: string, value: unknown): Promise<unknown> => {
    const schema = schemaFor(key);
    const result = await validateWith(schema, value);
    if (!result.ok) {
      throw new StorageValidationError(
        scope,
        key,
        `the value does not match the key's schema (${describeIssues(result.issues)})`,
        'Pass a value that matches the schema declared for this key.',
      );
    }
    const stored = toJsonValue(scope, key, value);
    // What is read back is the JSON form: a Date or a Map passes the schema here and then fails
    // every read as a string or an empty object. Refuse it now, while the caller can fix it.
    const readBack = await validateWith(schema, stored);
    if (!readBack.ok) {
      throw new StorageValidationError(
        scope,
        key,
        `the value changes when stored as JSON and then no longer matches the key's schema (${describeIssues(readBack.issues)})`,
        'Store JSON-friendly values, for example an ISO string instead of a Date.',
      );
    }
    await capabilities.storage.set(scope, key, stored);
    return readBack.value;
  };
  const remove = async (key: string): Promise<void> => {
    schemaFor(key);
    await capabilities.storage.delete(scope, key);
  };
  return Object.freeze({
    get: read as StorageScope<Record<string, never>>['get'],
    async set(key: string, value: unknown) {
      await write(key, value);
    },
    delete: remove,
    // Read, change, write: the read is tracked by the capabilities, so a concurrent change of the
    // key makes this call's save conflict instead of losing the other call's write.
    async update(key: string, fn: (current: unknown) => unknown) {
      schemaFor(key);
      if (typeof fn !== 'function') {
        throw new TypeError(
          `ctx.storage.${scope}.update("${key}", fn): fn must be a function from the current value to the new one (undefined deletes the key)`,
        );
      }
      const next = await fn(await read(key));
      if (next === undefined) {
        await remove(key);
        return undefined;
      }
      return write(key, next);
    },
  } as StorageScope<Record<string, never>>);
}

// What is stored is what JSON keeps; refuse values that would silently change on the way.
function toJsonValue(scope: StorageScopeName, key: string, value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new StorageValidationError(
      scope,
      key,
      `the value cannot be stored as JSON (${(error as Error).message})`,
      'Store plain JSON data: objects, arrays, strings, numbers, booleans and null.',
      { cause: error },
    );
  }
  if (text === undefined) {
    throw new StorageValidationError(
      scope,
      key,
      'the value cannot be stored as JSON',
      'Store plain JSON data; use delete() to remove a key.',
    );
  }
  return JSON.parse(text);
}

function createSecrets(capabilities: Capabilities): Secrets {
  const checkName = (name: unknown) => {
    if (typeof name !== 'string' || name === '') {
      throw new TypeError('ctx.secrets: a secret name must be a non-empty string');
    }
  };
  return Object.freeze({
    async get(name: string) {
      checkName(name);
      return capabilities.secrets.get(name);
    },
    async set(name: string, value: string) {
      checkName(name);
      if (typeof value !== 'string')
        throw new TypeError(`ctx.secrets.set("${name}"): the value must be a string`);
      await capabilities.secrets.set(name, value);
    },
  });
}

function createLogger(capabilities: Capabilities): Logger {
  const log = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    capabilities.log({
      level,
      message: redactText(String(message)),
      ...(fields === undefined ? {} : { fields: redactFields(fields) as Record<string, unknown> }),
    });
  };
  return Object.freeze({ debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') });
}
