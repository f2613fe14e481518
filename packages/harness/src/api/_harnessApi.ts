import type { CapabilityFetchRequest, CapabilityFetchResponse } from '@platform/sdk/runtime';
import type { HarnessMode, HarnessRegistryEntry, HarnessVariant } from '../types.js';
import type { FixtureStates } from './fixtureStates.js';
import type { LiveStore } from './liveStore.js';
import type { LocalSecretsFile } from './localSecrets.js';
import type { Recorder } from './recorder/createRecorder.js';

/** Live mode's one-hop network access: egress allowlist and private-address refusal, as on the host. */
export type LiveFetch = (
  request: CapabilityFetchRequest,
  egress: readonly string[],
) => Promise<CapabilityFetchResponse>;

/** What every route of one handlers instance shares. Nothing here is per tab: the toolbar state comes with each request. */
export interface HarnessApi {
  readonly entries: ReadonlyMap<string, HarnessRegistryEntry>;
  readonly projectDir: string;
  /** `PLATFORM_HARNESS_EXPOSE=1`: hosts other than loopback are served. */
  readonly exposed: boolean;
  readonly liveFetch: LiveFetch;
  readonly log: (line: string) => void;
  readonly now: () => Date;
  readonly fixtureStates: FixtureStates;
  readonly liveStore: LiveStore;
  readonly localSecrets: LocalSecretsFile;
  readonly recorder: Recorder;
  /** Fixtures mode's webhook signing secret when `triggerMocks` sets none: random, one per handlers instance. */
  readonly generatedSigningSecret: string;
}

/** One request's integration and toolbar state, resolved from the path and the `x-harness-*` headers. */
export interface HarnessCall {
  readonly entry: HarnessRegistryEntry;
  readonly variant: HarnessVariant;
  /** What runs: `live` only when asked for and the entry has a `live` block. */
  readonly mode: HarnessMode;
  /** Live mode with `x-harness-record: 1`: answered `ctx.fetch` hops become fixtures. */
  readonly record: boolean;
}

/** The Hono environment of the routes under `/api/integrations/:slug`. */
export interface HarnessEnv {
  Variables: { call: HarnessCall };
}

/** The harness's own actor ids (the account is the registry's `HARNESS_ACCOUNT_ID`). */
export const HARNESS_USER_ID = '00000000-0000-4000-8000-000000000003';
