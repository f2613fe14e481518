import type { WebhookRequestInit } from '@platform/sdk/runtime';
import { checkWebhookReply, redactText } from '@platform/sdk/runtime';
import type { Context } from 'hono';
import type { HostServices } from '../HostServices.js';
import type { RuntimeVersion } from '../runtime/Runtime.js';
import { errorResponse } from './_errors.js';

/**
 * Runs a webhook's synchronous `reply` through the runtime (no capabilities, within
 * `limits.webhookReplyTimeoutMs`) and answers it: the reply as the vendor gets it, `undefined` when
 * the webhook chose to queue the delivery, or 500 `handler_error` when the reply threw, ran out of
 * time or was refused. What comes back crossed from partner code, so it is checked again here with
 * the sdk's `checkWebhookReply`; a failure is logged for the operator with the partner's reason
 * redacted and cut, and the vendor gets no partner text.
 */
export async function answerWebhookReply(
  services: HostServices,
  c: Context,
  input: {
    readonly version: RuntimeVersion;
    readonly webhookId: string;
    readonly rawBody: string;
    readonly request: WebhookRequestInit;
    readonly log: Record<string, unknown>;
  },
): Promise<Response | undefined> {
  const budget = services.limits.webhookReplyTimeoutMs;
  const failed = (reason: string, message: string) => {
    services.logger.warn(
      { ...input.log, reason: redactText(reason).slice(0, 500) },
      'webhook reply failed; nothing was queued',
    );
    return errorResponse(c, 500, 'handler_error', `${message} Nothing was queued; the vendor may retry.`);
  };
  let answered: unknown;
  try {
    answered = await services.runtime.replyToWebhook({
      version: input.version,
      webhookId: input.webhookId,
      rawBody: input.rawBody,
      request: input.request,
      timeoutMs: budget,
    });
  } catch (error) {
    return failed(
      (error as Error).message,
      `The webhook's reply did not finish within its ${budget} ms budget.`,
    );
  }
  if (typeof answered !== 'object' || answered === null || !('ok' in answered)) {
    return failed('the runtime answered something that is not a reply result', "The webhook's reply failed.");
  }
  if (answered.ok !== true) {
    const error = (answered as { error?: { message?: unknown } }).error;
    return failed(String(error?.message ?? 'no reason given'), "The webhook's reply failed.");
  }
  const value = (answered as { reply?: unknown }).reply;
  if (value === undefined) return undefined;
  const checked = checkWebhookReply(fromChecked(value));
  if (!checked.ok) return failed(checked.message, checked.message);
  const { status, body, contentType } = checked.reply;
  return new Response(body === '' ? null : body, {
    status,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
  });
}

// The guest answers a reply already checked (`{ status, body, contentType }`); it goes through the
// same check again in the shape partner code returns, so anything else in it is refused or dropped.
function fromChecked(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { status, body, contentType } = value as Record<string, unknown>;
  return {
    ...(status === undefined ? {} : { status }),
    ...(body === undefined ? {} : { body }),
    ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }),
  };
}
