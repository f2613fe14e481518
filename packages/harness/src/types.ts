import type { AnyIntegrationDefinition } from '@platform/sdk/integration';
import type { ActivationFormProps, MarketplaceTileProps } from '@platform/ui';
import type { ComponentType } from 'react';

/** The toolbar's fixture variants; an omitted variant refuses every request (no fallback). */
export const HARNESS_VARIANTS = ['default', 'empty', 'error'] as const;
export type HarnessVariant = (typeof HARNESS_VARIANTS)[number];

/** The toolbar's data modes: fixtures (default, never the network) and live (needs the entry's `live` block). */
export const HARNESS_MODES = ['fixtures', 'live'] as const;
export type HarnessMode = (typeof HARNESS_MODES)[number];

/**
 * One recorded answer: `request` is `<METHOD> <target>` (absolute URL, or a path resolved against
 * the single egress origin); a string `response` is sent as `text/plain`, anything else as JSON.
 * @example const fixture: HttpFixture = { request: 'GET /v1/notes/:id', response: { id: 'n1' } };
 */
export interface HttpFixture {
  readonly request: string;
  readonly response?: unknown;
  /** Default 200 with a `response`, 204 without. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Fixtures per variant; a variant left out refuses every request. */
export type HarnessFixtures = Partial<Readonly<Record<HarnessVariant, readonly HttpFixture[]>>>;

/**
 * A react-query seed for a widget: `{ queryKey, data }` or `{ queryKey, error }` (error wins when both are set).
 * @example const seed: FixtureSeed = { queryKey: ['notes'], data: [] };
 */
export type FixtureSeed =
  | { readonly queryKey: readonly unknown[]; readonly data: unknown; readonly error?: unknown }
  | { readonly queryKey: readonly unknown[]; readonly error: unknown; readonly data?: unknown };

/** A widget as the harness renders it at `/<slug>/widgets/<id>`. */
export interface HarnessWidget {
  /** URL segment. */
  readonly id: string;
  readonly title: string;
  readonly component: ComponentType<any>;
  /** Default `'half'`. */
  readonly width?: 'half' | 'full';
  readonly isCollapsible?: boolean;
  readonly isPinnable?: boolean;
  readonly aiFooterEnabled?: boolean;
  readonly seeds?: Partial<Readonly<Record<HarnessVariant, readonly FixtureSeed[]>>>;
}

/** A `ctx.fetch` answer ahead of the fixtures, with the fixture request syntax in `match`. */
export interface HarnessFetchHandler {
  readonly match: string;
  readonly respond: (request: Request) => Response | Promise<Response>;
}

/** State the mock contexts start from, and fetch answers ahead of the fixtures. */
export interface HarnessTriggerMocks {
  readonly storage?: {
    readonly account?: Readonly<Record<string, unknown>>;
    readonly user?: Readonly<Record<string, unknown>>;
  };
  readonly secrets?: { readonly account?: Readonly<Record<string, string>> };
  readonly fetchHandlers?: readonly HarnessFetchHandler[];
}

/** Opt-in to live mode (the toolbar's Live API option). */
export interface HarnessLive {
  readonly seeds?: readonly FixtureSeed[];
  /** Opens the harness in live mode. */
  readonly default?: 'live';
  /** Origins live requests may reach; only when the entry has no `definition` (which brings its own egress). */
  readonly egress?: readonly string[];
}

/** How the harness presents the OAuth connection. */
export interface HarnessOAuth {
  /** Fixtures mode's connection state: one boolean or one per variant. Default connected. */
  readonly connected?: boolean | Partial<Readonly<Record<HarnessVariant, boolean>>>;
  readonly setup?: {
    readonly consoleUrl?: string;
    readonly consoleLabel?: string;
    readonly notes?: readonly string[];
  };
}

/** One integration in `harness.config.ts` (an element of `harnessIntegrations`). */
export interface HarnessRegistryEntry {
  /** Starts with a letter or digit; letters, digits, dot, underscore, hyphen. Unique. */
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  readonly widgets: readonly HarnessWidget[];
  readonly fixtures?: HarnessFixtures;
  readonly tile?: ComponentType<MarketplaceTileProps>;
  readonly activationForm?: ComponentType<ActivationFormProps>;
  /** Wrap with `asHarnessDefinition()`. Powers Triggers, the egress allowlist and actions. */
  readonly definition?: HarnessDefinition;
  readonly triggerMocks?: HarnessTriggerMocks;
  readonly live?: HarnessLive;
  readonly oauth?: HarnessOAuth;
}

/** A definition with its storage generic erased, as the registry holds it. */
export type HarnessDefinition = AnyIntegrationDefinition & { readonly __harness?: true };

/** What `defineHarnessConfig()` returns: the validated entries, frozen. */
export type HarnessRegistry = readonly HarnessRegistryEntry[];
