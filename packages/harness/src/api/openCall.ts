import type { IntegrationContext, StorageConflictError } from '@platform/sdk/integration';
import {
  type Capabilities,
  createContext,
  type LogEntry,
  redactText,
  redactUrl,
} from '@platform/sdk/runtime';
import type { HarnessHop } from '../hooks/createHarnessFetch.js';
import { HARNESS_ACCOUNT_ID } from '../registry/index.js';
import { HARNESS_USER_ID, type HarnessApi, type HarnessCall } from './_harnessApi.js';
import { fixtureThatAnswered, suggestedFixture } from './fixtureStates.js';
import { createLiveCapabilities, type StorageSnapshot } from './liveCapabilities.js';

/** One call's `ctx`, and what the routes read around it. */
export interface OpenedCall {
  readonly ctx: IntegrationContext;
  /** Every `ctx.fetch` of the call so far, answered or refused. */
  readonly hops: HarnessHop[];
  /** What the handler logged through `ctx.logger` (and `ctx.fetch`'s hop lines) during this call. */
  readonly logs: LogEntry[];
  snapshot(): Promise<StorageSnapshot>;
  /** A secret as `ctx.secrets.get` resolves it (account tier, then admin tiers). */
  secret(name: string): Promise<string | undefined>;
  /**
   * Saves the call's writes once its handler succeeded, as the host does; until then (and if it
   * fails) only what `ctx.checkpoint()` saved is stored. Throws `StorageConflictError` when
   * another call changed a key this one read.
   */
  commit(): Promise<void>;
  /** The conflict a checkpoint or the commit found, if any: the call should answer `conflict`. */
  conflict(): StorageConflictError | undefined;
}

/**
 * Builds `ctx` for one call with the sdk's `createContext`: in fixtures mode over the variant's
 * memory state (so actions, webhooks and schedules share it), in live mode over the live
 * capabilities; either way the call's writes are held until `commit()` or a checkpoint. Actions run as the harness user, webhooks and schedules as a machine actor (for
 * which `ctx.storage.user` throws).
 * @example const { ctx } = openCall(api, call, 'machine'); await runSchedule(definition, id, ctx);
 */
export function openCall(api: HarnessApi, call: HarnessCall, actor: 'user' | 'machine'): OpenedCall {
  const definition = call.entry.definition;
  if (definition === undefined) throw new Error(`"${call.entry.slug}" has no definition`);
  const logs: LogEntry[] = [];
  let base: Omit<Capabilities, 'log'> & { log?: Capabilities['log'] };
  let snapshot: () => Promise<StorageSnapshot>;
  let saved: Pick<OpenedCall, 'commit' | 'conflict'>;
  if (call.mode === 'live') {
    const live = createLiveCapabilities(api, call.entry, { record: call.record });
    base = live;
    snapshot = live.snapshot;
    saved = { commit: () => live.commit(), conflict: live.conflict };
  } else {
    const memory = api.fixtureStates.capabilities(call.entry, call.variant);
    const opened = memory.openCall();
    base = { ...memory, ...opened };
    saved = { commit: opened.commit, conflict: () => opened.conflict };
    snapshot = async () => ({
      account: Object.fromEntries(clone(memory.state.storage.account)),
      user: Object.fromEntries(clone(memory.state.storage.user)),
    });
  }
  const hops: HarnessHop[] = [];
  const capabilities: Capabilities = {
    async fetch(request) {
      const hop = { method: request.method.toUpperCase(), url: redactUrl(request.url) };
      try {
        const response = await base.fetch(request);
        const fixture = fixtureThatAnswered(response);
        hops.push({
          ...hop,
          answer:
            fixture === undefined
              ? { kind: 'network', status: response.status }
              : { kind: 'fixture', fixture, status: response.status },
        });
        return response;
      } catch (error) {
        const suggestion = suggestedFixture(error);
        hops.push({
          ...hop,
          answer: {
            kind: 'refused',
            message: redactText(error instanceof Error ? error.message : String(error)),
            ...(suggestion === undefined ? {} : { suggestion }),
          },
        });
        throw error;
      }
    },
    storage: base.storage,
    secrets: base.secrets,
    log(entry) {
      logs.push(entry);
      base.log?.(entry);
    },
    checkpoint: () => base.checkpoint(),
  };
  const ctx = createContext({
    definition,
    capabilities,
    actor:
      actor === 'machine'
        ? { kind: 'machine', accountId: HARNESS_ACCOUNT_ID }
        : { kind: 'user', userId: HARNESS_USER_ID, accountId: HARNESS_ACCOUNT_ID },
  });
  return { ctx, logs, hops, snapshot, secret: (name) => base.secrets.get(name), ...saved };
}

function clone(map: ReadonlyMap<string, unknown>): [string, unknown][] {
  return [...map].map(([key, value]) => [key, structuredClone(value)]);
}
