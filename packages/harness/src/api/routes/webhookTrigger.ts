import {
  deliverWebhook,
  parseWebhookPayload,
  signWebhookPayload,
  verifyWebhookSignature,
} from '@platform/sdk/runtime';
import { Hono } from 'hono';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';
import { LOCAL_SECRETS_FILE } from '../localSecrets.js';
import { openCall } from '../openCall.js';
import { invalidVariant, readBody, runTrigger, withVariant } from './_trigger.js';

/** Where a trigger's signing secret came from: `triggerMocks.secrets.account` (or what a handler set), generated, or live mode's secrets. */
export type SigningSecretSource = 'triggerMocks' | 'generated' | 'live';

/**
 * `POST /api/integrations/<slug>/triggers/webhooks/<id>` `{ payload, variant? }`: the payload is
 * checked by the webhook's `payloadSchema` (400 `invalid_payload` with issues), signed with the
 * declared scheme, verified with the sdk's `verifyWebhookSignature` (the ingress's own check), then
 * delivered by `deliverWebhook` as a machine actor. The signing secret is the one `ctx.secrets`
 * resolves (fixtures: `triggerMocks.secrets.account`; live: the live store, then
 * `.platform/local-secrets.json`); fixtures mode without one signs with a generated secret and
 * says so, live mode without one answers 400 `not_configured`.
 */
export function webhookTriggerRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  app.post('/triggers/webhooks/:webhookId', async (c) => {
    const body = await readBody(c, ['payload', 'variant']);
    if (!body.ok) return body.response;
    const call = withVariant(c.get('call'), body.value.variant);
    if (call === undefined) return invalidVariant(c, body.value.variant);
    if (!Object.hasOwn(body.value, 'payload'))
      return errorResponse(c, 400, 'invalid_input', 'Send { "payload": <the webhook event> }.');
    const webhookId = c.req.param('webhookId');
    const definition = call.entry.definition;
    const webhook = definition?.webhooks?.find((candidate) => candidate.id === webhookId);
    if (definition === undefined || webhook === undefined) {
      const declared = definition?.webhooks?.map((candidate) => candidate.id) ?? [];
      return errorResponse(
        c,
        404,
        'webhook_not_found',
        `"${call.entry.slug}" declares no webhook "${webhookId}"; declared: ${declared.join(', ') || 'none'}.`,
      );
    }
    const rawBody = JSON.stringify(body.value.payload);
    const parsed = await parseWebhookPayload(definition, webhookId, rawBody);
    if (!parsed.ok) {
      return errorResponse(c, 400, 'invalid_payload', parsed.error.message, {
        ...(parsed.error.issues === undefined ? {} : { issues: parsed.error.issues }),
      });
    }
    const opened = openCall(api, call, 'machine');
    let signature: Record<string, unknown> | undefined;
    if (webhook.signature !== undefined) {
      const { secretName } = webhook.signature;
      let secret = await opened.secret(secretName);
      let source: SigningSecretSource = call.mode === 'live' ? 'live' : 'triggerMocks';
      if (secret === undefined && call.mode === 'live') {
        return errorResponse(
          c,
          400,
          'not_configured',
          `The signing secret ${secretName} of webhook "${webhookId}" is not set; set it on the Activation surface (POST local-setup), which writes ${LOCAL_SECRETS_FILE}.`,
        );
      }
      if (secret === undefined) {
        secret = api.generatedSigningSecret;
        source = 'generated';
      }
      const now = api.now();
      const headers = await signWebhookPayload({ signature: webhook.signature, rawBody, secret, now });
      // The ingress's own check on the signed delivery: a scheme that cannot verify fails here, visibly.
      const verdict = await verifyWebhookSignature({
        signature: webhook.signature,
        headers,
        rawBody,
        secret,
        now,
      });
      if (!verdict.valid) {
        return errorResponse(
          c,
          500,
          'invalid_signature',
          `The harness signed the delivery with the declared scheme, but it did not verify (${verdict.reason ?? 'invalid'}); check webhooks.${webhookId}.signature.scheme.`,
        );
      }
      signature = {
        headers,
        verified: true,
        secret: {
          name: secretName,
          source,
          ...(source === 'generated'
            ? {
                note: `${secretName} is not set in triggerMocks.secrets.account, so the harness signed with a secret it generated.`,
              }
            : {}),
        },
      };
    }
    return runTrigger(c, call, opened, (ctx) => deliverWebhook(definition, webhookId, rawBody, ctx), {
      webhookId,
      ...(signature === undefined ? {} : { signature }),
    });
  });

  return app;
}
