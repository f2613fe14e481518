import { isHeaderName, signedPayloadParts } from '@platform/integration-schema';
import {
  deliverWebhook,
  parseWebhookPayload,
  replyToWebhook,
  signWebhookPayload,
  verifyWebhookSignature,
  type WebhookRequestInit,
  webhookBodyKind,
  webhookFormBody,
  webhookHeaderView,
} from '@platform/sdk/runtime';
import { type Context, Hono } from 'hono';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';
import { LOCAL_SECRETS_FILE } from '../localSecrets.js';
import { openCall } from '../openCall.js';
import { invalidVariant, readBody, runTrigger, withVariant } from './_trigger.js';

/** Where a trigger's signing secret came from: `triggerMocks.secrets.account` (or what a handler set), generated, or live mode's secrets. */
export type SigningSecretSource = 'triggerMocks' | 'generated' | 'live';

const JSON_TYPE = 'application/json';

/**
 * `POST /api/integrations/<slug>/triggers/webhooks/<id>` `{ payload, variant?, contentType?, headers? }`:
 * the delivery is built as a vendor sends it (`contentType` `application/json`, the default, or
 * `application/x-www-form-urlencoded` with `payload` an object of strings or string arrays;
 * `headers` are more request headers, such as `X-GitHub-Event`), checked by the webhook's
 * `payloadSchema` (400 `invalid_payload` with issues), signed with the declared scheme (a signed
 * `{header:<name>}` not given is generated, `{url}` is this harness's ingress-shaped URL),
 * verified with the sdk's `verifyWebhookSignature` (the ingress's own check). Then, as at the
 * ingress: a webhook whose `reply` answers is answered with it (`reply`, `queued: false`, the
 * handler does not run); otherwise `deliverWebhook` runs the handler as a machine actor with the
 * same request view (`request`). Form parsing and the header view are the sdk's one rule
 * (`runtime/webhookRequest.ts`). The signing secret is the one `ctx.secrets` resolves (fixtures:
 * `triggerMocks.secrets.account`; live: the live store, then `.platform/local-secrets.json`);
 * fixtures mode without one signs with a generated secret and says so, live mode without one
 * answers 400 `not_configured`.
 */
export function webhookTriggerRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  app.post('/triggers/webhooks/:webhookId', async (c) => {
    const body = await readBody(c, ['payload', 'variant', 'contentType', 'headers']);
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
    const delivery = readDelivery(c, body.value);
    if (!delivery.ok) return delivery.response;
    const { contentType, rawBody } = delivery;
    const parsed = await parseWebhookPayload(definition, webhookId, rawBody, contentType);
    if (!parsed.ok) {
      return errorResponse(c, 400, 'invalid_payload', parsed.error.message, {
        ...(parsed.error.issues === undefined ? {} : { issues: parsed.error.issues }),
      });
    }
    const opened = openCall(api, call, 'machine');
    // What the vendor sends besides the body; the signature's headers join it below.
    let sent: Record<string, string> = { ...delivery.headers, 'content-type': contentType };
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
        // In the form the scheme reads: a base64 scheme gets a whsec_ secret of the same bytes.
        secret =
          webhook.signature.scheme?.secretEncoding === 'base64'
            ? `whsec_${Buffer.from(api.generatedSigningSecret, 'hex').toString('base64')}`
            : api.generatedSigningSecret;
        source = 'generated';
      }
      const now = api.now();
      const url = `${new URL(c.req.url).origin}/api/integrations/${call.entry.slug}/webhooks/${webhookId}`;
      const given = withSignedHeaders(sent, webhook.signature.scheme?.signedPayload);
      let headers: Record<string, string>;
      try {
        headers = await signWebhookPayload({
          signature: webhook.signature,
          rawBody,
          secret,
          now,
          method: 'POST',
          url,
          headers: given,
        });
      } catch (error) {
        return errorResponse(
          c,
          500,
          'invalid_signature',
          `The harness could not sign the delivery with the declared scheme (${(error as Error).message}); check webhooks.${webhookId}.signature.scheme and the signing secret ${secretName}.`,
        );
      }
      sent = { ...given, ...headers };
      // The ingress's own check on the signed delivery: a scheme that cannot verify fails here, visibly.
      const verdict = await verifyWebhookSignature({
        signature: webhook.signature,
        headers: sent,
        rawBody,
        secret,
        now,
        method: 'POST',
        url,
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
    const request: WebhookRequestInit = { method: 'POST', headers: webhookHeaderView(sent), contentType };
    const extra = { webhookId, ...(signature === undefined ? {} : { signature }), request };
    if (webhook.reply !== undefined) {
      const replied = await replyToWebhook(definition, webhookId, rawBody, request);
      // As at the ingress: a reply (or a failed one) answers the vendor, and nothing is delivered.
      if (!replied.ok || replied.reply !== undefined) {
        return runTrigger(c, call, opened, async () => (replied.ok ? { ok: true } : replied), {
          ...extra,
          queued: false,
          ...(replied.ok ? { reply: replied.reply } : {}),
        });
      }
    }
    return runTrigger(
      c,
      call,
      opened,
      (ctx) => deliverWebhook(definition, webhookId, rawBody, ctx, request),
      { ...extra, queued: true },
    );
  });

  return app;
}

type Delivery =
  | { ok: true; contentType: string; rawBody: string; headers: Record<string, string> }
  | { ok: false; response: Response };

// The trigger body's delivery: its content type, raw body and extra headers, or the 400 saying what is wrong.
function readDelivery(c: Context<HarnessEnv>, value: Record<string, unknown>): Delivery {
  const refuse = (message: string): Delivery => ({
    ok: false,
    response: errorResponse(c, 400, 'invalid_input', message),
  });
  const contentType = value.contentType ?? JSON_TYPE;
  if (typeof contentType !== 'string' || contentType.trim() === '') {
    return refuse('"contentType" must be a media type, such as "application/x-www-form-urlencoded".');
  }
  const headers: Record<string, string> = {};
  if (value.headers !== undefined) {
    if (typeof value.headers !== 'object' || value.headers === null || Array.isArray(value.headers)) {
      return refuse(
        '"headers" must be an object of header names to strings, such as { "X-GitHub-Event": "push" }.',
      );
    }
    for (const [name, header] of Object.entries(value.headers)) {
      if (!isHeaderName(name) || typeof header !== 'string') {
        return refuse(`Header "${name}" must have a valid name and a string value.`);
      }
      if (name.toLowerCase() !== 'content-type') headers[name] = header;
    }
  }
  if (webhookBodyKind(contentType) === 'form') {
    const rawBody = webhookFormBody(value.payload);
    if (rawBody === undefined) {
      return refuse(
        'A form-encoded payload is an object whose values are strings or arrays of strings, such as { "command": "/note", "text": "hi" }.',
      );
    }
    return { ok: true, contentType, rawBody, headers };
  }
  return { ok: true, contentType, rawBody: JSON.stringify(value.payload), headers };
}

// The headers a vendor would send for a scheme's `{header:<name>}`: the ones given, and a generated
// id for any the trigger did not name (Standard Webhooks' `webhook-id`, for instance).
function withSignedHeaders(
  headers: Record<string, string>,
  signedPayload: string | undefined,
): Record<string, string> {
  const out = { ...headers };
  const given = new Set(Object.keys(out).map((name) => name.toLowerCase()));
  for (const part of signedPayloadParts(signedPayload ?? '{body}')) {
    if (part.kind !== 'header' || given.has(part.name)) continue;
    out[part.name] = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
    given.add(part.name);
  }
  return out;
}
