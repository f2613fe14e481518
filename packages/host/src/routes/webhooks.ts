import type { DefinitionManifest, WebhookRequestInit, WebhookVerification } from '@platform/sdk/runtime';
import {
  type PayloadShape,
  payloadFitsShape,
  readPayloadShape,
  verifyWebhookSignature,
  webhookBodyKind,
  webhookHeaderView,
} from '@platform/sdk/runtime';
import { type Context, Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import type { WebhookPayloadVerdict } from '../runtime/Runtime.js';
import { securityEvent } from '../security/securityEvent.js';
import { readBundle, sourceServesAccountSql } from '../store/integrations.js';
import { readSecret } from '../store/secrets.js';
import { accountByRefSql } from '../store/users.js';
import { hostOrigin } from './_auth.js';
import { bodyLimit } from './_bodyLimit.js';
import { errorResponse, requestIdOf } from './_errors.js';
import { answerWebhookReply } from './_webhookReply.js';

/** Attempts of a webhook delivery (the first and its retries) before it is marked failed. */
export const WEBHOOK_MAX_ATTEMPTS = 5;

// `$2` is the account's id or slug; the activation joins on the id it resolves to, and only while
// the integration's source serves that account (the tenancy rule): an unserved account answers
// like one without the activation, the same as an account that does not exist.
const TARGET_SQL = `
SELECT v.id AS version_id, v.manifest, i.source_id, a.account_id
FROM integrations i
JOIN versions v ON v.id = i.live_version_id
LEFT JOIN (${accountByRefSql('$2')}) acc ON true
LEFT JOIN activations a ON a.integration_slug = i.slug AND a.account_id = acc.id
  AND ${sourceServesAccountSql('i.source_id', 'acc.id')}
WHERE i.slug = $1`;

// JSON is UTF-8 (RFC 8259): a body that is not is refused rather than altered.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `POST /api/integrations/<slug>/webhooks/<webhookId>?accountId=` (the account's id or slug):
 * vendor deliveries. In order:
 * size limit (413), integration/webhook/activation (404), signature with the signing secret from
 * the tiers (401, never a hint of the expected value), payload schema (form or JSON by
 * Content-Type; a JSON body that fits the manifest's declared shape on the host, any other through
 * the runtime; 400 with issues), the webhook's synchronous `reply` when it declares
 * one (answered at once, nothing queued); then the raw body and the request's method, header view
 * and content type are stored durably as a job and answered 202 before the handler runs. The URL
 * is the credential's address; the signature is the credential. An unknown account
 * answers like an account without the integration (`not_activated`): callers here are not signed
 * in, so the route does not tell which account slugs exist.
 */
export function webhookRoutes(services: HostServices): Hono {
  const app = new Hono();
  const maxSize = services.limits.webhookBodyBytes;
  const tooLarge = (c: Context) =>
    errorResponse(
      c,
      413,
      'payload_too_large',
      `The delivery is larger than ${maxSize} bytes; ask the vendor for smaller events.`,
    );
  app.post('/:slug/webhooks/:webhookId', bodyLimit({ maxSize, onError: tooLarge }), async (c) => {
    const slug = c.req.param('slug');
    const webhookId = c.req.param('webhookId');
    const accountRef = c.req.query('accountId') ?? '';
    // Only a found, activated target is cached: deactivation, a new live version or an account
    // change drops it on every instance within `services.cache.staleAfterMs` (src/cache/).
    const row = await services.cache.memoize(
      `webhook-target\n${slug}\n${accountRef}`,
      async () => (await services.db.query(TARGET_SQL, [slug, accountRef])).rows[0],
      (found) => typeof found?.account_id === 'string',
    );
    const manifest = row?.manifest as DefinitionManifest | undefined;
    const webhook = manifest?.webhooks.find((candidate) => candidate.id === webhookId);
    if (row === undefined) {
      return errorResponse(
        c,
        404,
        'integration_not_found',
        `No integration "${slug}" is installed on this host; check the URL registered with the vendor.`,
      );
    }
    if (webhook === undefined) {
      return errorResponse(
        c,
        404,
        'webhook_not_found',
        `Integration "${slug}" declares no webhook "${webhookId}"; check the URL registered with the vendor.`,
      );
    }
    if (typeof row.account_id !== 'string') {
      return errorResponse(
        c,
        404,
        'not_activated',
        `Integration "${slug}" is not activated for an account "${accountRef}" (by id or slug) on this host; check the accountId in the URL registered with the vendor.`,
      );
    }
    const accountId = row.account_id;
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const request: WebhookRequestInit = {
      method: c.req.method,
      // Node's raw list when served by node:http (no `Headers` built for it), else the request's.
      headers: webhookHeaderView(rawHeadersOf(c) ?? c.req.raw.headers),
      contentType: c.req.header('content-type'),
    };
    if (webhook.signature !== undefined) {
      const { signature } = webhook;
      const scope = { slug, accountId, sourceId: row.source_id as string };
      const read = () => readSecret(services.db, services.secretBox, scope, signature.secretName);
      const verify = async (secret: string | undefined): Promise<WebhookVerification> =>
        secret === undefined
          ? {
              valid: false,
              reason: 'the signing secret is not set up on this host',
              refusal: 'misconfigured',
            }
          : verifyWebhookSignature({
              signature,
              headers: c.req.raw.headers,
              rawBody: bytes,
              secret,
              now: services.now(),
              method: c.req.method,
              // Built only for a scheme that signs it (a URL parse per delivery otherwise).
              url: () => vendorUrl(services, c),
            });
      // Cached for at most the host cache's maxAgeMs (the secrets table is not one it watches):
      // a secret refused here is read again from the database before the delivery is refused,
      // so a new secret is used at once, and a replaced or deleted one stops verifying within
      // that bound on every instance.
      let secret = await services.cache.memoize(
        `webhook-secret\n${slug}\n${accountId}\n${scope.sourceId}\n${signature.secretName}`,
        read,
        (found) => found !== undefined,
      );
      let verdict = await verify(secret);
      if (!verdict.valid && secret !== undefined) {
        const current = await read();
        if (current !== secret) {
          secret = current;
          verdict = await verify(current);
        }
      }
      if (secret === undefined) {
        services.logger.warn(
          { integration: slug, accountId, webhookId, secretName: signature.secretName },
          'webhook refused: its signing secret is not set in any tier',
        );
      }
      if (!verdict.valid) {
        // A missing secret is the operator's set-up (logged above), not a forged delivery.
        if (secret !== undefined) {
          securityEvent(
            services.logger,
            'webhook_forged',
            {
              integration: slug,
              webhookId,
              accountId,
              // A category, never the header, digest or body.
              reason: verdict.refusal,
              requestId: requestIdOf(c),
            },
            'webhook refused: its signature did not verify',
          );
        }
        return errorResponse(
          c,
          401,
          'invalid_signature',
          `The ${signature.header} signature was refused (${verdict.reason ?? 'invalid'}); sign the delivery as the webhook's scheme says, with its signing secret.`,
        );
      }
    }
    let rawBody: string;
    try {
      rawBody = utf8.decode(bytes);
    } catch {
      return errorResponse(
        c,
        400,
        'invalid_payload',
        'The body is not UTF-8; send the event as UTF-8 (JSON or form-encoded).',
      );
    }
    const versionId = row.version_id as string;
    // A body that fits the schema's declared shape is accepted here; any other goes to the schema
    // in the isolate, which decides and words the issues.
    let parsed: WebhookPayloadVerdict = { ok: true };
    if (!fitsDeclaredShape(webhook, rawBody, request.contentType)) {
      try {
        parsed = await services.runtime.parseWebhookPayload({
          version: { id: versionId, loadBundle: () => readBundle(services.db, versionId) },
          webhookId,
          rawBody,
          contentType: request.contentType,
          timeoutMs: services.limits.webhookTimeoutMs,
        });
      } catch (error) {
        // The partner's schema threw or ran past its budget: nothing is stored, the vendor retries.
        services.logger.warn(
          { err: error, integration: slug, webhookId, accountId, requestId: requestIdOf(c) },
          'webhook refused: its payloadSchema failed while checking the delivery',
        );
        return errorResponse(
          c,
          500,
          'handler_error',
          `The webhook's payloadSchema failed while checking this delivery; it was not accepted, so the vendor may retry. The integration's developer can reproduce it with this payload.`,
        );
      }
    }
    if (!parsed.ok) {
      return errorResponse(c, 400, 'invalid_payload', parsed.error.message, {
        ...(parsed.error.issues === undefined ? {} : { issues: parsed.error.issues }),
      });
    }
    if (webhook.hasReply === true) {
      const answered = await answerWebhookReply(services, c, {
        version: { id: versionId, loadBundle: () => readBundle(services.db, versionId) },
        webhookId,
        rawBody,
        request,
        log: { integration: slug, webhookId, accountId, requestId: requestIdOf(c) },
      });
      if (answered !== undefined) return answered;
    }
    const now = services.now();
    let deliveryId: string | undefined;
    try {
      // Group commit: answered once the row is committed, with whatever came in meanwhile.
      deliveryId = await services.enqueueBatcher.enqueue({
        kind: 'webhook',
        slug,
        accountId,
        versionId,
        target: webhookId,
        body: rawBody,
        request,
        maxAttempts: WEBHOOK_MAX_ATTEMPTS,
        runAt: now,
      });
    } catch (error) {
      services.logger.error(
        { err: error, integration: slug, webhookId, accountId, requestId: requestIdOf(c) },
        'webhook delivery not stored',
      );
      return errorResponse(
        c,
        503,
        'internal_error',
        'The delivery could not be stored and was not accepted; the vendor may retry.',
      );
    }
    return c.json({ ok: true, data: { deliveryId } }, 202);
  });
  return app;
}

/** The request's header names and values in turn as Node received them, when served by node:http. */
function rawHeadersOf(c: Context): readonly string[] | undefined {
  const raw = (c.env as { incoming?: { rawHeaders?: unknown } } | undefined)?.incoming?.rawHeaders;
  return Array.isArray(raw) ? raw : undefined;
}

type ManifestWebhook = DefinitionManifest['webhooks'][number];

/**
 * Bodies up to this many UTF-16 units are checked against a declared shape on the host; a larger one
 * is parsed and checked in the isolate, off the event loop (a JSON.parse of the 1 MiB limit is
 * milliseconds of the event loop, and on an unsigned webhook anyone can send one).
 */
const PAYLOAD_FIT_MAX_BODY = 64 * 1024;

// Each manifest's shapes are read once (a manifest is cached with its target; a new version is a new object).
const shapes = new WeakMap<ManifestWebhook, PayloadShape | null>();

/**
 * Whether a JSON body fits the webhook's declared `payloadShape` (sdk `payloadShape.ts`): then its
 * payloadSchema accepts it too, and the isolate need not be asked. False for a form-encoded body,
 * one over {@link PAYLOAD_FIT_MAX_BODY}, one that is not JSON, a manifest without a readable shape
 * (older bundles, schemas it cannot state), a body that does not fit, or a fit check past its
 * step budget.
 */
function fitsDeclaredShape(
  webhook: ManifestWebhook,
  rawBody: string,
  contentType: string | undefined,
): boolean {
  let shape = shapes.get(webhook);
  if (shape === undefined) {
    shape = readPayloadShape(webhook.payloadShape) ?? null;
    shapes.set(webhook, shape);
  }
  if (shape === null || rawBody.length > PAYLOAD_FIT_MAX_BODY || webhookBodyKind(contentType) !== 'json')
    return false;
  let value: unknown;
  try {
    value = JSON.parse(rawBody);
  } catch {
    return false;
  }
  return payloadFitsShape(shape, value);
}

/**
 * The URL a vendor called, as `{url}` signs it: the host's public origin (else the request's) with
 * the path and query as received.
 */
function vendorUrl(services: HostServices, c: Context): string {
  const received = new URL(c.req.url);
  return `${hostOrigin(services, c).replace(/\/+$/, '')}${received.pathname}${received.search}`;
}
