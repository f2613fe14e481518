import { parseDefinition } from '@platform/integration-schema';
import type { Actor, AnyIntegrationDefinition, Tokens } from '../integration/types.js';
import type { Capabilities } from './capabilities.js';
import { createContext } from './createContext.js';
import { deliverWebhook, parseWebhookPayload, replyToWebhook } from './deliverWebhook.js';
import { describeDefinition } from './describeDefinition.js';
import { invokeAction } from './invokeAction.js';
import { invokeTool } from './invokeTool.js';
import { runActivate } from './runActivate.js';
import { runOnTokens } from './runOnTokens.js';
import { runSchedule } from './runSchedule.js';
import type { WebhookRequestInit } from './webhookRequest.js';

/** One call into partner code as plain JSON: what an isolated runtime sends into the isolate. */
export type GuestCall =
  | { readonly op: 'describe' }
  | {
      readonly op: 'parseWebhookPayload';
      readonly webhookId: string;
      readonly rawBody: string;
      readonly contentType?: string;
    }
  | {
      readonly op: 'replyToWebhook';
      readonly webhookId: string;
      readonly rawBody: string;
      readonly request?: WebhookRequestInit;
    }
  | {
      readonly op: 'invokeAction';
      readonly actor: Actor;
      readonly actionName: string;
      readonly rawBody: string;
    }
  | {
      readonly op: 'deliverWebhook';
      readonly actor: Actor;
      readonly webhookId: string;
      readonly rawBody: string;
      readonly request?: WebhookRequestInit;
    }
  | {
      readonly op: 'invokeTool';
      readonly actor: Actor;
      /** The tool's declared name (not the slug-prefixed effective one). */
      readonly toolName: string;
      /** The arguments as the model sent them (JSON), checked by the tool's input schema. */
      readonly args: unknown;
    }
  | { readonly op: 'runSchedule'; readonly actor: Actor; readonly scheduleId: string }
  | { readonly op: 'runActivate'; readonly actor: Actor }
  | { readonly op: 'runOnTokens'; readonly actor: Actor; readonly tokens: Tokens };

/**
 * Runs one {@link GuestCall} against a definition with the guest engine: the single entry point a
 * version's bundle exports for an isolate. The result is JSON data; `describe` throws when the
 * definition does not pass the strict schema.
 * @example const envelope = await runGuestCall(definition, { op: 'invokeAction', actor, actionName, rawBody }, capabilities);
 */
export async function runGuestCall(
  definition: AnyIntegrationDefinition,
  // `deadline` (ms since the epoch): set by the isolate's prelude from what the runner was told.
  call: GuestCall & { readonly deadline?: number },
  capabilities: Capabilities,
): Promise<unknown> {
  if (call.op === 'describe') {
    const parsed = parseDefinition(definition);
    if (!parsed.ok) throw parsed.error;
    return describeDefinition(definition);
  }
  // Validation and replies only: no context, so a payload schema or a reply cannot reach storage,
  // secrets or the network.
  if (call.op === 'parseWebhookPayload')
    return parseWebhookPayload(definition, call.webhookId, call.rawBody, call.contentType);
  if (call.op === 'replyToWebhook')
    return replyToWebhook(definition, call.webhookId, call.rawBody, call.request);
  const ctx = createContext({
    definition,
    capabilities,
    actor: call.actor,
    ...(typeof call.deadline === 'number' ? { deadline: call.deadline } : {}),
  });
  switch (call.op) {
    case 'invokeAction':
      return invokeAction(definition, call.actionName, call.rawBody, ctx, { mode: 'production' });
    case 'invokeTool':
      return invokeTool(definition, call.toolName, call.args, ctx, { mode: 'production' });
    case 'deliverWebhook':
      return deliverWebhook(definition, call.webhookId, call.rawBody, ctx, call.request);
    case 'runSchedule':
      return runSchedule(definition, call.scheduleId, ctx);
    case 'runActivate':
      return runActivate(definition, ctx);
    case 'runOnTokens':
      return runOnTokens(definition, ctx, call.tokens);
  }
}
