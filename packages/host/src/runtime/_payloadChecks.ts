// Owns the shape of payload checks batched into one isolate entry, and reading the isolate's
// answers to them; and which handler a guest call runs (for the keys read ahead of it).
import type { GuestCall } from '@platform/sdk/runtime';
import type { Runtime, WebhookPayloadVerdict } from './Runtime.js';

/** Payload checks in one batch at most, and their bodies' length (a larger body goes alone). */
export const PAYLOAD_CHECKS_PER_BATCH = 64;
export const PAYLOAD_BATCH_BYTES = 1024 * 1024;

export type PayloadCheck = Parameters<Runtime['parseWebhookPayload']>[0];

/** The prelude's own op (src/runner/prelude): several payload checks of one version in one entry. */
export interface PayloadChecksCall {
  readonly op: 'parseWebhookPayloads';
  readonly items: readonly { webhookId: string; rawBody: string; contentType?: string }[];
}

/**
 * The prelude's answer to a batch of payload checks (JSON text from the isolate: checked, not
 * trusted): one answer per check, in order. A check that threw answers `{ __thrown }`, which
 * becomes the error its caller is rejected with; so does an answer that is not an object.
 */
export function answersOf(text: string, count: number): (WebhookPayloadVerdict | Error)[] {
  const answers: unknown = JSON.parse(text);
  if (!Array.isArray(answers) || answers.length !== count) {
    throw new Error(
      'the isolate answered a batch of payload checks with something other than one answer each',
    );
  }
  return answers.map((answer: unknown) => {
    const verdict = (answer ?? {}) as { ok?: unknown; error?: unknown; __thrown?: { message?: unknown } };
    if (typeof verdict.__thrown === 'object' && verdict.__thrown !== null) {
      return new Error(String(verdict.__thrown.message ?? 'the payload check failed'));
    }
    if (verdict.ok === true) return { ok: true };
    if (verdict.ok === false && typeof verdict.error === 'object' && verdict.error !== null) {
      return verdict as WebhookPayloadVerdict;
    }
    return new Error('the isolate answered a payload check with no verdict');
  });
}

/** Which handler a guest call runs, for the keys to read ahead of it. */
export function handlerOf(request: GuestCall): string {
  switch (request.op) {
    case 'invokeAction':
      return `action\n${request.actionName}`;
    case 'invokeTool':
      return `tool\n${request.toolName}`;
    case 'deliverWebhook':
      return `webhook\n${request.webhookId}`;
    case 'runSchedule':
      return `schedule\n${request.scheduleId}`;
    default:
      return request.op;
  }
}
