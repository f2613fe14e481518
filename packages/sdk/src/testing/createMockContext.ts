import { NoRecordedResponseError } from '../integration/errors.js';
import type { AnyIntegrationDefinition, IntegrationContext, NoKeys } from '../integration/types.js';
import { base64ToBytes, bytesToBase64 } from '../runtime/_base64.js';
import type { CapabilityFetchRequest, CapabilityFetchResponse } from '../runtime/capabilities.js';
import { createContext } from '../runtime/createContext.js';
import {
  createMemoryCapabilities,
  type MemoryCapabilities,
  type MemoryCapabilitiesOptions,
} from '../runtime/createMemoryCapabilities.js';
import { redactUrl } from '../runtime/redact.js';
import { type FixtureRequest, findFixture, parseFixtureRequest } from './fixtureRequest.js';

/** A `ctx.fetch` answer for tests: `match` is `<METHOD> <target>` or a bare target (any method). */
export interface MockFetchHandler {
  readonly match: string;
  readonly respond: (request: Request) => Response | Promise<Response>;
}

export interface MockContextOptions extends Pick<MemoryCapabilitiesOptions, 'storage' | 'secrets'> {
  /** First match wins; an unmatched request is refused with `NoRecordedResponseError`, never sent. */
  readonly fetchHandlers?: readonly MockFetchHandler[];
  /** Default: a user. `{ kind: 'machine' }` runs as webhooks and schedules do. */
  readonly actor?:
    | { readonly kind: 'user'; readonly userId?: string; readonly accountId?: string }
    | { readonly kind: 'machine'; readonly accountId?: string };
  /** When the call's budget ends (ms since the epoch), for `ctx.remainingMs()`. Default: none (`Infinity`). */
  readonly deadline?: number;
}

type StorageOf<D> = D extends { readonly storage?: infer S } ? NonNullable<S> : NoKeys;

/** A mock `ctx` plus what it recorded: storage, secrets, logs and requests. */
export type MockContext<S = NoKeys> = IntegrationContext<S> & { readonly mock: MemoryCapabilities['state'] };

export const MOCK_USER_ID = 'test-user';
export const MOCK_ACCOUNT_ID = 'test-account';

/**
 * A context for tests with the real context's rules (storage keys and schemas, egress, secret
 * tiers, machine actors) over memory. State accumulates across calls on one context.
 * @example
 * const ctx = createMockContext(definition, {
 *   fetchHandlers: [{ match: 'GET /v1/notes', respond: () => Response.json([]) }],
 * });
 * await invokeAction(definition, 'list-notes', '{}', ctx, { mode: 'harness' });
 */
export function createMockContext<const D extends AnyIntegrationDefinition>(
  definition: D,
  options: MockContextOptions = {},
): MockContext<StorageOf<D>> {
  const egress = definition.egress ?? [];
  const handlers = (options.fetchHandlers ?? []).map((handler) => ({
    handler,
    request: parseFixtureRequest(handler.match, { egress, allowBareTarget: true }),
  }));
  const capabilities = createMemoryCapabilities({
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    fetch: (request) => answer(handlers, request),
  });
  const actor = options.actor ?? { kind: 'user' };
  const accountId = actor.accountId ?? MOCK_ACCOUNT_ID;
  const ctx = createContext({
    definition,
    capabilities,
    actor:
      actor.kind === 'machine'
        ? { kind: 'machine', accountId }
        : { kind: 'user', userId: actor.userId ?? MOCK_USER_ID, accountId },
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
  });
  return Object.freeze({ ...ctx, mock: capabilities.state }) as unknown as MockContext<StorageOf<D>>;
}

async function answer(
  handlers: readonly { handler: MockFetchHandler; request: FixtureRequest }[],
  data: CapabilityFetchRequest,
): Promise<CapabilityFetchResponse> {
  const found = findFixture(handlers, (entry) => entry.request, { method: data.method, url: data.url });
  if (found === null) {
    throw new NoRecordedResponseError(
      data.method,
      redactUrl(data.url),
      `Add a fetchHandlers entry that matches it, for example { match: '${data.method} ${redactUrl(data.url).replace(/\?\.\.\.$/, '')}', respond: () => Response.json({}) }.`,
    );
  }
  const request = new Request(data.url, {
    method: data.method,
    headers: data.headers.map(([key, value]) => [key, value] as [string, string]),
    ...(data.body === null ? {} : { body: base64ToBytes(data.body) }),
  });
  const response = await found.entry.handler.respond(request);
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: bytesToBase64(new Uint8Array(await response.arrayBuffer())),
  };
}
