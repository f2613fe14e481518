import type { Actor, Tokens } from '@platform/sdk/integration';
import type {
  ActionEnvelope,
  ActivateResult,
  Capabilities,
  DefinitionManifest,
  OnTokensErrorCode,
  ParsedWebhookPayload,
  RunResult,
  ScheduleErrorCode,
  ToolEnvelope,
  WebhookErrorCode,
  WebhookReplyResult,
  WebhookRequestInit,
} from '@platform/sdk/runtime';

/** What ingress learns from a payload check: valid, or why not (`ParsedWebhookPayload` less the payload). */
export type WebhookPayloadVerdict = { readonly ok: true } | Extract<ParsedWebhookPayload, { ok: false }>;

/**
 * What identifies the code a call runs: a version id, and how to get its bundle (an ES module
 * whose default export is the definition). Versions never change, so a runtime loads a bundle once
 * per version and calls `loadBundle` only then.
 */
export interface RuntimeVersion {
  readonly id: string;
  /** The integration and version number, for what the runtime reports (security events, warnings). */
  readonly slug?: string;
  readonly number?: number;
  loadBundle(): Promise<string>;
}

/** Something partner code tried that the runtime refused or stopped, for the host's logs. */
export interface RuntimeReport {
  /** `capability_borrowing`: a request under a call id its isolate does not run (a security event). */
  readonly kind: 'capability_borrowing' | 'leftover_work';
  readonly versionId: string;
  readonly integration: string | undefined;
  readonly version: number | undefined;
  /** The runner process's id. */
  readonly runner: number;
  readonly message: string;
}

export interface RuntimeCall {
  readonly version: RuntimeVersion;
  /** Host-side capabilities for this call; every platform rule is enforced behind them. */
  readonly capabilities: Capabilities;
  readonly actor: Actor;
  /** Wall-clock budget of the handler. */
  readonly timeoutMs: number;
}

/**
 * Where partner code runs. The host talks to partner code only through this interface, so the
 * in-process runtime (tests, local development) and the isolated one are interchangeable.
 */
export interface Runtime {
  /** True only for a runtime that is a security boundary. */
  readonly isolated: boolean;
  /** The data part of a bundle's definition (checked with the strict schema as it loads). */
  describe(version: RuntimeVersion): Promise<DefinitionManifest>;
  invokeAction(
    call: RuntimeCall & { readonly actionName: string; readonly rawBody: string },
  ): Promise<ActionEnvelope>;
  /**
   * Runs a tool by its declared name with the arguments an MCP client sent (JSON): the sdk's
   * `invokeTool`. The envelope crossed from partner code and is checked (`readToolEnvelope`).
   */
  invokeTool(
    call: RuntimeCall & { readonly toolName: string; readonly args: unknown },
  ): Promise<ToolEnvelope>;
  /**
   * Finds a webhook and validates a raw body against its `payloadSchema` (`~standard.validate`),
   * without running its handler: what ingress checks before it stores a delivery and answers 202.
   * Partner schemas are partner code, so this runs where the rest of it runs. No capabilities:
   * validation may not reach out. Never throws for a bad body (`invalid_payload`, with `issues`).
   * The verdict only: ingress stores the raw body, so the parsed payload does not travel back.
   */
  parseWebhookPayload(call: {
    readonly version: RuntimeVersion;
    readonly webhookId: string;
    readonly rawBody: string;
    /** The request's Content-Type: form-encoded bodies are decoded, anything else parsed as JSON. */
    readonly contentType?: string | undefined;
    readonly timeoutMs: number;
  }): Promise<WebhookPayloadVerdict>;
  /**
   * Runs a webhook's `reply` (the sdk's `replyToWebhook`) on a delivery that passed its signature
   * and payload checks: a checked reply to answer at once, or `reply: undefined` to queue it. Like
   * `parseWebhookPayload`, no capabilities. Throws when the call cannot finish (budget, crash); the
   * caller re-checks the reply with `checkWebhookReply`, as it crossed from partner code.
   */
  replyToWebhook(call: {
    readonly version: RuntimeVersion;
    readonly webhookId: string;
    readonly rawBody: string;
    readonly request: WebhookRequestInit;
    readonly timeoutMs: number;
  }): Promise<WebhookReplyResult>;
  deliverWebhook(
    call: RuntimeCall & {
      readonly webhookId: string;
      readonly rawBody: string;
      /** The delivery's request as stored with the job; absent for jobs queued by an older host. */
      readonly request?: WebhookRequestInit;
    },
  ): Promise<RunResult<WebhookErrorCode>>;
  runSchedule(call: RuntimeCall & { readonly scheduleId: string }): Promise<RunResult<ScheduleErrorCode>>;
  runActivate(call: RuntimeCall): Promise<ActivateResult>;
  runOnTokens(call: RuntimeCall & { readonly tokens: Tokens }): Promise<RunResult<OnTokensErrorCode>>;
  close(): Promise<void>;
}
