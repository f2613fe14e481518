import type { AnyIntegrationDefinition, IntegrationContext } from '../integration/types.js';
import { errorMessage } from './_errors.js';
import { describeIssues, validateWith } from './_validate.js';
import type { RunError, RunResult } from './envelope.js';

export type WebhookErrorCode = 'webhook_not_found' | 'invalid_payload' | 'handler_error';

export type ParsedWebhookPayload =
  | { readonly ok: true; readonly payload: unknown }
  | { readonly ok: false; readonly error: RunError<WebhookErrorCode> };

/**
 * Finds the webhook and validates a raw body against its `payloadSchema`: what ingress checks
 * before it stores a delivery and answers 202.
 * @example const parsed = await parseWebhookPayload(definition, 'note-created', rawBody);
 */
export async function parseWebhookPayload(
  definition: AnyIntegrationDefinition,
  webhookId: string,
  rawBody: string,
): Promise<ParsedWebhookPayload> {
  const webhook = definition.webhooks?.find((candidate) => candidate.id === webhookId);
  if (webhook === undefined) {
    return { ok: false, error: { code: 'webhook_not_found', message: `Unknown webhook "${webhookId}".` } };
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch (error) {
    return {
      ok: false,
      error: { code: 'invalid_payload', message: `The payload is not JSON: ${(error as Error).message}` },
    };
  }
  const result = await validateWith(webhook.payloadSchema, body);
  if (!result.ok) {
    return {
      ok: false,
      error: {
        code: 'invalid_payload',
        message: `The payload does not match the webhook's payloadSchema: ${describeIssues(result.issues)}`,
        issues: result.issues,
      },
    };
  }
  return { ok: true, payload: result.value };
}

/**
 * Runs a webhook handler on a raw delivery body (validated again, so the handler sees the schema's
 * output). `ctx` should be a machine actor's. Never throws; a failure is reported for retry.
 * @example const result = await deliverWebhook(definition, 'note-created', rawBody, ctx);
 */
export async function deliverWebhook(
  definition: AnyIntegrationDefinition,
  webhookId: string,
  rawBody: string,
  ctx: IntegrationContext,
): Promise<RunResult<WebhookErrorCode>> {
  const parsed = await parseWebhookPayload(definition, webhookId, rawBody);
  if (!parsed.ok) return parsed;
  const webhook = definition.webhooks!.find((candidate) => candidate.id === webhookId)!;
  try {
    await webhook.handler(ctx, parsed.payload);
    return { ok: true };
  } catch (thrown) {
    const message = errorMessage(thrown);
    ctx.logger.error(`webhook "${webhookId}" failed: ${message}`);
    return { ok: false, error: { code: 'handler_error', message } };
  }
}
