import {
  type CapabilityFetchRequest,
  type CapabilityFetchResponse,
  createMemoryCapabilities,
  type MemoryCapabilities,
} from '@platform/sdk/runtime';
import { type FixtureRequest, findFixture, parseFixtureRequest } from '@platform/sdk/testing';
import {
  answerFromFixtures,
  type CompiledFixture,
  compileFixtures,
  entryEgress,
  refuseRequest,
} from '../fixtures/index.js';
import type { HarnessFetchHandler, HarnessRegistryEntry, HarnessVariant } from '../types.js';

/** Fixtures mode's state: one set of memory capabilities per integration per variant, kept across calls. */
export interface FixtureStates {
  /** Created on first use from `triggerMocks` (storage, account secrets); actions, webhooks and schedules share it. */
  capabilities(entry: HarnessRegistryEntry, variant: HarnessVariant): MemoryCapabilities;
}

/**
 * The fixtures-mode states of one handlers instance. `ctx.fetch` is answered by
 * `triggerMocks.fetchHandlers` first (any variant), then by the variant's vendor fixtures (host-route
 * `/api/...` fixtures never answer a handler); anything else is refused, logged, never sent.
 * @example const capabilities = createFixtureStates(log).capabilities(entry, 'default');
 */
export function createFixtureStates(log: (line: string) => void): FixtureStates {
  const states = new Map<string, MemoryCapabilities>();
  return {
    capabilities(entry, variant) {
      const key = JSON.stringify([entry.slug, variant]);
      let state = states.get(key);
      if (state === undefined) {
        const mocks = entry.triggerMocks;
        const memory = createMemoryCapabilities({
          ...(mocks?.storage === undefined ? {} : { storage: mocks.storage }),
          ...(mocks?.secrets?.account === undefined ? {} : { secrets: { account: mocks.secrets.account } }),
        });
        // Kept for the whole dev session: the memory state's request and log lists (for tests'
        // assertions) would only grow, so hops go to the fixtures directly and lines nowhere here.
        state = { ...memory, fetch: fixtureFetch(entry, variant, log), log: () => {} };
        states.set(key, state);
      }
      return state;
    },
  };
}

interface CompiledAnswers {
  readonly handlers: readonly { readonly handler: HarnessFetchHandler; readonly request: FixtureRequest }[];
  readonly fixtures: readonly CompiledFixture[];
}

function fixtureFetch(entry: HarnessRegistryEntry, variant: HarnessVariant, log: (line: string) => void) {
  const egress = entryEgress(entry);
  // Parsed on first use: a malformed fixture fails the call that needs it (its message names the
  // fixture and the fix) and is parsed again next time, after the partner fixed it.
  let compiled: CompiledAnswers | undefined;
  const compile = (): CompiledAnswers => ({
    handlers: (entry.triggerMocks?.fetchHandlers ?? []).map((handler, index) => {
      try {
        return { handler, request: parseFixtureRequest(handler.match, { egress, allowBareTarget: true }) };
      } catch (error) {
        throw new Error(
          `harness.config.ts: "${entry.slug}" triggerMocks.fetchHandlers[${index}]: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }),
    fixtures: compileFixtures(entry, variant).egress,
  });
  return async (request: CapabilityFetchRequest): Promise<CapabilityFetchResponse> => {
    compiled ??= compile();
    const target = { method: request.method, url: request.url };
    const handled = findFixture(compiled.handlers, (candidate) => candidate.request, target);
    if (handled !== null) {
      const response = await toCapabilityResponse(await handled.entry.handler.respond(toRequest(request)));
      ANSWERED_BY.set(response, `triggerMocks.fetchHandlers: ${handled.entry.handler.match}`);
      return response;
    }
    const answered = answerFromFixtures(compiled.fixtures, target);
    if (answered !== null) {
      const response = await toCapabilityResponse(answered.response);
      ANSWERED_BY.set(response, answered.fixture.request);
      return response;
    }
    const { error, line, suggestion } = refuseRequest(
      request.method,
      request.url,
      variant,
      egress,
      entry.slug,
    );
    log(line);
    SUGGESTED.set(error, suggestion);
    throw error;
  };
}

// Which fixture answered a `ctx.fetch`, and the literal a refusal suggests, for the call's hop list
// (`openCall`): kept beside the objects the fetch returns or throws, so its signature stays the capability's.
const ANSWERED_BY = new WeakMap<CapabilityFetchResponse, string>();
const SUGGESTED = new WeakMap<Error, string>();

/** The fixture (`<METHOD> <target>`) that answered this response of a fixtures-mode `ctx.fetch`, if one did. */
export function fixtureThatAnswered(response: CapabilityFetchResponse): string | undefined {
  return ANSWERED_BY.get(response);
}

/** The fixture literal a fixtures-mode refusal suggests adding, if this error is one. */
export function suggestedFixture(error: unknown): string | undefined {
  return error instanceof Error ? SUGGESTED.get(error) : undefined;
}

function toRequest(data: CapabilityFetchRequest): Request {
  return new Request(data.url, {
    method: data.method,
    headers: data.headers.map(([name, value]) => [name, value] as [string, string]),
    ...(data.body === null ? {} : { body: Buffer.from(data.body, 'base64') }),
  });
}

/**
 * A Web Response as the capability boundary carries it (body in base64).
 * @example await toCapabilityResponse(Response.json({ ok: true }))
 */
export async function toCapabilityResponse(response: Response): Promise<CapabilityFetchResponse> {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: Buffer.from(await response.arrayBuffer()).toString('base64'),
  };
}
