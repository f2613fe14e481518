import type { StandardSchemaV1, WebhookSignature } from '@platform/integration-schema';
import type { WebhookReply, WebhookRequest } from './webhookRequest.js';

/** Any Standard Schema: zod 3 (>= 3.25.76), zod 4, or another library implementing `~standard`. */
export type AnySchema = StandardSchemaV1;
/** What a schema gives after validation. */
export type SchemaOutput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : never;
/** What a schema accepts. */
export type SchemaInput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : never;

/** A declaration map with no keys: what a scope that declares nothing offers. */
export type NoKeys = Record<never, never>;

/** Storage key to schema, for one scope. */
export type StorageSchemas = { readonly [key: string]: AnySchema };
/** A definition's `storage` block. */
export interface StorageDeclaration {
  readonly account?: StorageSchemas;
  readonly user?: StorageSchemas;
}

// The declared keys of one scope; a scope not declared has none, so any key is a type error.
type ScopeKeys<S, Scope extends 'account' | 'user'> = S extends { readonly [P in Scope]?: infer M }
  ? [NonNullable<M>] extends [StorageSchemas]
    ? NonNullable<M>
    : NoKeys
  : NoKeys;

/** One storage scope of `ctx.storage`, typed by the declared schemas. */
export interface StorageScope<M> {
  /** The stored value (validated against the key's schema on read), or `undefined` when unset. */
  get<K extends keyof M & string>(key: K): Promise<SchemaOutput<M[K]> | undefined>;
  /** Validates the value against the key's schema, then stores it. */
  set<K extends keyof M & string>(key: K, value: SchemaInput<M[K]>): Promise<void>;
  delete<K extends keyof M & string>(key: K): Promise<void>;
  /**
   * Read-modify-write of one key: reads it (validated, `undefined` when unset), calls `fn` with it,
   * then stores what `fn` returns (validated as `set` does) or deletes the key when `fn` returns
   * `undefined`; answers the new value. The read is tracked: if another call changes the key
   * before this call's writes are saved, they are not saved and the call fails with
   * `StorageConflictError` (the host retries webhook deliveries and schedule runs; actions answer
   * `conflict`, 409). Keys a call only writes, never reads, are blind writes: the last save wins.
   * @example await ctx.storage.account.update('sync_state/deleted-ids', (ids = []) => [...ids, payload.id]);
   */
  update<K extends keyof M & string>(
    key: K,
    fn: (
      current: SchemaOutput<M[K]> | undefined,
    ) => SchemaInput<M[K]> | undefined | Promise<SchemaInput<M[K]> | undefined>,
  ): Promise<SchemaOutput<M[K]> | undefined>;
}

/** Who a call runs for: a signed-in user, or the host itself (webhooks, schedules). */
export type Actor =
  | { readonly kind: 'user'; readonly userId: string; readonly accountId: string }
  | { readonly kind: 'machine'; readonly accountId: string };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** `ctx.logger`: URLs in messages and fields are redacted (query replaced by `?...`, userinfo stripped). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** `ctx.secrets`: reads resolve account, then source, then global tier; writes go to the account tier only. */
export interface Secrets {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
}

/** The capability context every handler receives. */
export interface IntegrationContext<S = StorageDeclaration> {
  /** `fetch` restricted to the definition's egress, redirect targets included. */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  readonly storage: {
    readonly account: StorageScope<ScopeKeys<S, 'account'>>;
    /** Throws for machine actors. */
    readonly user: StorageScope<ScopeKeys<S, 'user'>>;
  };
  readonly secrets: Secrets;
  readonly logger: Logger;
  readonly actor: Actor;
  /**
   * Saves the storage and secret writes made so far, under the same rule as the save at the end
   * (every key this call read must be unchanged, else `StorageConflictError` and nothing is
   * saved), and goes on. A call's writes are all-or-nothing by default: a handler that throws or
   * runs out of time keeps nothing. With checkpoints, what was saved at the last checkpoint is
   * kept and only the writes after it are discarded, so a long sync keeps its progress.
   * @example for (const page of pages) { await ctx.storage.account.set('sync_state/cursor', page.next); await ctx.checkpoint(); }
   */
  checkpoint(): Promise<void>;
  /**
   * Milliseconds left of this call's time budget (`Infinity` when none is known, as in the
   * harness): wait or start slow work only when it fits, so the call answers before it is stopped.
   * @example if (ctx.remainingMs() < 5_000) return { done: false, cursor };
   */
  remainingMs(): number;
}

/** The argument of `onTokens`. */
export interface Tokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** ISO 8601. */
  readonly expiresAt?: string;
  readonly scope?: string;
  readonly tokenType?: string;
  /** Provider extras, verbatim. */
  readonly raw?: Readonly<Record<string, unknown>>;
}

type MaybePromise<T> = T | Promise<T>;

/**
 * An action: validated input, optional validated output, and the handler between them.
 * @example const create: PartnerActionDeclaration<typeof Input, typeof Output> = { description, input: Input, output: Output, handler };
 */
export interface PartnerActionDeclaration<
  I extends AnySchema = AnySchema,
  O extends AnySchema | undefined = AnySchema | undefined,
  S = StorageDeclaration,
> {
  readonly description: string;
  readonly input: I;
  readonly output?: O;
  readonly handler: (
    ctx: IntegrationContext<S>,
    input: SchemaOutput<I>,
  ) => MaybePromise<O extends AnySchema ? SchemaInput<O> : unknown>;
}

export interface WidgetDeclaration {
  readonly id: string;
  readonly name: string;
  readonly component: unknown;
  readonly isCollapsible?: boolean;
  readonly isPinnable?: boolean;
  readonly aiFooterEnabled?: boolean;
  readonly icon?: string;
}

export interface ScheduleDeclaration<S = StorageDeclaration> {
  readonly id: string;
  /** Five numeric fields, UTC. */
  readonly cron: string;
  readonly description?: string;
  readonly handler: (ctx: IntegrationContext<S>) => MaybePromise<void>;
}

export interface OAuthDeclaration<S = StorageDeclaration> {
  readonly provider: {
    readonly authorizationUrl: string;
    readonly tokenUrl: string;
    readonly scopes: readonly string[];
    readonly pkce?: boolean;
    readonly tokenAuthMethod?: 'client_secret_basic' | 'client_secret_post';
  };
  readonly credentials: { readonly clientIdSecretName: string; readonly clientSecretSecretName: string };
  readonly onTokens: (ctx: IntegrationContext<S>, tokens: Tokens) => MaybePromise<void>;
}

/**
 * A connection the account's owner or admin sets up by entering fields (an API key, a username and
 * password) instead of an OAuth loop. The host checks them with `verify` before storing them as
 * account-tier secrets named after the fields (readable through `ctx.secrets`).
 */
export interface ConnectionDeclaration {
  /** `apiKey`: the `header` template names the fields; `basic`: fields `username` and `password`. */
  readonly kind: 'apiKey' | 'basic';
  /** What the account enters; each is stored under its `name`. `secret` fields are masked when entered. */
  readonly fields: readonly { readonly name: string; readonly label: string; readonly secret: boolean }[];
  /** `apiKey` only, required there: the `Authorization` value, fields in braces (`'Bearer {apiKey}'`). */
  readonly header?: string;
  /** The request the host sends with the `Authorization` header to test the fields; 2xx accepts them. */
  readonly verify: { readonly method: 'GET' | 'HEAD' | 'POST'; readonly url: string };
  /** Origins (covered by egress) to whose requests `ctx.fetch` attaches the `Authorization` header. */
  readonly authorization?: { readonly origins: readonly string[] };
}

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface Proposes {
  readonly tools?: {
    readonly [toolName: string]: {
      readonly effect: 'read' | 'write' | 'destructive';
      readonly sensitivity: 'low' | 'medium' | 'high';
    };
  };
  readonly scope?: 'user' | 'team';
}

/** What inference starts from: the parts of an action, webhook or tool that are not the handler. */
export interface ActionConstraint {
  readonly description: string;
  readonly input: AnySchema;
  readonly output?: AnySchema;
  readonly handler: unknown;
}
export interface WebhookConstraint {
  readonly id: string;
  readonly description?: string;
  readonly payloadSchema: AnySchema;
  readonly signature?: WebhookSignature;
  readonly reply?: unknown;
  readonly handler: unknown;
}
export interface ToolConstraint {
  readonly name: string;
  readonly description: string;
  readonly input?: AnySchema;
  readonly output?: AnySchema;
  readonly handler?: unknown;
}

type InputOf<D> = D extends { readonly input: infer I extends AnySchema } ? SchemaOutput<I> : undefined;
type ResultOf<D> = D extends { readonly output: infer O extends AnySchema } ? SchemaInput<O> : unknown;
type PayloadOf<D> = D extends { readonly payloadSchema: infer P extends AnySchema } ? SchemaOutput<P> : never;

// Each declaration keeps its own literal type, except its handler, which is typed from its schemas
// and the definition's storage. Mapping over the declaration's own keys is what lets TypeScript
// infer the schemas first and then type the handler's parameters.
export type ActionsOf<A, S> = {
  [K in keyof A]: {
    [P in keyof A[K]]: P extends 'handler'
      ? (ctx: IntegrationContext<S>, input: InputOf<A[K]>) => MaybePromise<ResultOf<A[K]>>
      : A[K][P];
  };
};
export type WebhooksOf<W, S> = {
  [K in keyof W]: {
    [P in keyof W[K]]: P extends 'handler'
      ? (ctx: IntegrationContext<S>, payload: PayloadOf<W[K]>, request: WebhookRequest) => MaybePromise<void>
      : P extends 'reply'
        ? (payload: PayloadOf<W[K]>, request: WebhookRequest) => MaybePromise<WebhookReply | undefined>
        : W[K][P];
  };
};
export type ToolsOf<T, S> = {
  [K in keyof T]: {
    [P in keyof T[K]]: P extends 'handler'
      ? (ctx: IntegrationContext<S>, input: InputOf<T[K]>) => MaybePromise<ResultOf<T[K]>>
      : T[K][P];
  };
};

/** A definition as `defineIntegration()` returns it, with its storage, actions, webhooks and tools typed. */
export interface IntegrationDefinition<
  S extends StorageDeclaration = StorageDeclaration,
  A = Record<string, ActionConstraint>,
  W extends readonly unknown[] = readonly WebhookConstraint[],
  T extends readonly unknown[] = readonly ToolConstraint[],
> {
  readonly slug: string;
  readonly components?: { readonly widgets?: readonly WidgetDeclaration[] };
  readonly layouts?: {
    readonly lg?: Readonly<Record<string, Rect>>;
    readonly md?: Readonly<Record<string, Rect>>;
    readonly sm?: Readonly<Record<string, Rect>>;
  };
  readonly tools?: ToolsOf<T, S>;
  readonly webhooks?: WebhooksOf<W, S>;
  readonly schedules?: readonly ScheduleDeclaration<S>[];
  readonly actions?: ActionsOf<A, S>;
  readonly oauth?: OAuthDeclaration<S>;
  readonly connection?: ConnectionDeclaration;
  readonly egress?: readonly string[];
  readonly storage?: S;
  readonly proposes?: Proposes;
  readonly onActivate?: (ctx: IntegrationContext<S>) => MaybePromise<void>;
}

type AnyHandler = (...args: any[]) => unknown;

/** Any definition, whatever its inferred types: what the runtime functions accept. */
export interface AnyIntegrationDefinition {
  readonly slug: string;
  readonly components?: { readonly widgets?: readonly WidgetDeclaration[] };
  readonly layouts?: IntegrationDefinition['layouts'];
  readonly tools?: readonly {
    readonly name: string;
    readonly description: string;
    readonly input?: AnySchema;
    readonly output?: AnySchema;
    readonly handler?: AnyHandler;
  }[];
  readonly webhooks?: readonly {
    readonly id: string;
    readonly description?: string;
    readonly payloadSchema: AnySchema;
    readonly signature?: WebhookSignature;
    readonly reply?: AnyHandler;
    readonly handler: AnyHandler;
  }[];
  readonly schedules?: readonly {
    readonly id: string;
    readonly cron: string;
    readonly description?: string;
    readonly handler: AnyHandler;
  }[];
  readonly actions?: {
    readonly [name: string]: {
      readonly description: string;
      readonly input: AnySchema;
      readonly output?: AnySchema;
      readonly handler: AnyHandler;
    };
  };
  readonly oauth?: Omit<OAuthDeclaration, 'onTokens'> & { readonly onTokens: AnyHandler };
  readonly connection?: ConnectionDeclaration;
  readonly egress?: readonly string[];
  readonly storage?: StorageDeclaration;
  readonly proposes?: Proposes;
  readonly onActivate?: AnyHandler;
}
