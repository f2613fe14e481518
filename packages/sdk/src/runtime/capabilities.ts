import type { LogLevel } from '../integration/types.js';

/** One HTTP hop as it crosses the capability boundary: plain JSON, body in base64. */
export interface CapabilityFetchRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: readonly (readonly [string, string])[];
  /** Base64 of the body bytes, or null for none. */
  readonly body: string | null;
}

export interface CapabilityFetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: readonly (readonly [string, string])[];
  /** Base64 of the body bytes. */
  readonly body: string;
}

/**
 * A header of a capability response by its lower-case name (the first when repeated).
 * @example capabilityHeader(response, 'content-type') // 'application/json'
 */
export function capabilityHeader(response: CapabilityFetchResponse, name: string): string | undefined {
  return response.headers.find(([key]) => key.toLowerCase() === name)?.[1];
}

export type StorageScopeName = 'account' | 'user';

/** One stored key: a storage scope and a declared key. */
export interface StorageRef {
  readonly scope: StorageScopeName;
  readonly key: string;
}

/** A key read ahead of a call: `value` is absent when nothing is stored. */
export interface PreloadedValue extends StorageRef {
  readonly value?: unknown;
}

export interface LogEntry {
  readonly level: LogLevel;
  /** Redacted by the guest engine's logger; the host redacts and budgets every entry again (never trusts this). */
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * What the guest engine needs from its host. The host implements it over PostgreSQL and the
 * network and enforces every rule that protects the platform (egress, private addresses, secret
 * tiers, scopes); the harness and `@platform/sdk/testing` implement it in memory.
 */
export interface Capabilities {
  /** Sends exactly one request and never follows redirects; the guest checks each hop against egress. */
  fetch(request: CapabilityFetchRequest): Promise<CapabilityFetchResponse>;
  readonly storage: {
    /** The stored JSON value, or undefined. */
    get(scope: StorageScopeName, key: string): Promise<unknown>;
    set(scope: StorageScopeName, key: string, value: unknown): Promise<void>;
    delete(scope: StorageScopeName, key: string): Promise<void>;
    /**
     * Reads keys ahead of a call (those its handler read last time), so that a guest across a
     * process boundary need not ask for each: answers the ones it read, each with its value (none
     * when absent). A value counts as read only once `preloadUsed` names it (or `get` asks for its
     * key). Optional: a runtime in the host's own process gains nothing from it.
     */
    preload?(refs: readonly StorageRef[]): Promise<PreloadedValue[]>;
    /** The guest used these preloaded values (the keys were not touched before): read from here. */
    preloadUsed?(refs: readonly StorageRef[]): void;
    /** The keys this call has read so far, first read first: what to preload next time. */
    reads?(): readonly StorageRef[];
  };
  readonly secrets: {
    /** Account tier, then source, then global. */
    get(name: string): Promise<string | undefined>;
    /** Account tier only; throws `SecretAccessError` for a name that exists only in admin tiers. */
    set(name: string, value: string): Promise<void>;
  };
  log(entry: LogEntry): void;
  /**
   * Saves the call's storage and secret writes so far under the conflict rule of
   * `storageTransaction.ts` (every key the call read still has the version it read); throws
   * `StorageConflictError` and saves nothing on a conflict. Later writes build on what it saved.
   */
  checkpoint(): Promise<void>;
}
