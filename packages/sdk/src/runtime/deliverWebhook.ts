import type { AnyIntegrationDefinition, IntegrationContext } from '../integration/types.js';
import { errorMessage } from './_errors.js';
import { describeIssues, validateWith } from './_validate.js';
import type { RunError, RunResult } from './envelope.js';
import { checkWebhookReply, type WebhookReplyResponse } from './webhookReply.js';
import { parseWebhookBody, toWebhookRequest, type WebhookRequestInit } from './webhookRequest.js';

export type WebhookErrorCode = 'webhook_not_found' | 'invalid_payload' | 'handler_error';

export type ParsedWebhookPayload =
  | { readonly ok: true; readonly payload: unknown }
  | { readonly ok: false; readonly error: RunError<WebhookErrorCode> };

/** What a webhook's `reply` answered: a checked reply, or `undefined` to queue the delivery. */
export type WebhookReplyResult =
  | { readonly ok: true; readonly reply: WebhookReplyResponse | undefined }
  | { readonly ok: false; readonly error: RunError<WebhookErrorCode> };

/**
 * Finds the webhook and validates a raw body against its `payloadSchema`: what ingress checks
 * before it stores a delivery and answers 202. The body is form-decoded when `contentType` is
 * `application/x-www-form-urlencoded`, else parsed as JSON.
 * @example const parsed = await parseWebhookPayload(definition, 'note-created', rawBody, request.headers.get('content-type') ?? undefined);
 */
export async function parseWebhookPayload(
  definition: AnyIntegrationDefinition,
  webhookId: string,
  rawBody: string,
  contentType?: string,
): Promise<ParsedWebhookPayload> {
  const webhook = definition.webhooks?.find((candidate) => candidate.id === webhookId);
  if (webhook === undefined) {
    return { ok: false, error: { code: 'webhook_not_found', message: `Unknown webhook "${webhookId}".` } };
  }
  const body = parseWebhookBody(rawBody, contentType);
  if (!body.ok) return { ok: false, error: { code: 'invalid_payload', message: body.message } };
  const result = await validateWith(webhook.payloadSchema, body.value);
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
 * Runs a webhook's `reply` (when it declares one) on a delivery: the synchronous answer to a
 * verification challenge. No context: a reply cannot reach storage, secrets or the network. The
 * reply is checked by `checkWebhookReply`; `reply: undefined` means "queue it as usual". Never throws.
 * @example const answered = await replyToWebhook(definition, 'slack-events', rawBody, { method: 'POST', headers, contentType });
 */
export async function replyToWebhook(
  definition: AnyIntegrationDefinition,
  webhookId: string,
  rawBody: string,
  request?: WebhookRequestInit,
): Promise<WebhookReplyResult> {
  const parsed = await parseWebhookPayload(definition, webhookId, rawBody, request?.contentType);
  if (!parsed.ok) return parsed;
  const webhook = definition.webhooks!.find((candidate) => candidate.id === webhookId)!;
  if (webhook.reply === undefined) return { ok: true, reply: undefined };
  let value: unknown;
  try {
    value = await webhook.reply(parsed.payload, toWebhookRequest(request, rawBody));
  } catch (thrown) {
    return { ok: false, error: { code: 'handler_error', message: `reply failed: ${errorMessage(thrown)}` } };
  }
  if (value === undefined) return { ok: true, reply: undefined };
  const checked = checkWebhookReply(value);
  if (!checked.ok) return { ok: false, error: { code: 'handler_error', message: checked.message } };
  return { ok: true, reply: checked.reply };
}

/**
 * Runs a webhook handler on a raw delivery body (validated again, so the handler sees the schema's
 * output) with the delivery's request view as its third argument. `ctx` should be a machine
 * actor's. Never throws; a failure is reported for retry.
 * @example const result = await deliverWebhook(definition, 'note-created', rawBody, ctx, { method: 'POST', headers, contentType });
 */
export async function deliverWebhook(
  definition: AnyIntegrationDefinition,
  webhookId: string,
  rawBody: string,
  ctx: IntegrationContext,
  request?: WebhookRequestInit,
): Promise<RunResult<WebhookErrorCode>> {
  const parsed = await parseWebhookPayload(definition, webhookId, rawBody, request?.contentType);
  if (!parsed.ok) return parsed;
  const webhook = definition.webhooks!.find((candidate) => candidate.id === webhookId)!;
  try {
    await webhook.handler(ctx, parsed.payload, toWebhookRequest(request, rawBody));
    return { ok: true };
  } catch (thrown) {
    const message = errorMessage(thrown);
    ctx.logger.error(`webhook "${webhookId}" failed: ${message}`);
    return { ok: false, error: { code: 'handler_error', message } };
  }
}
