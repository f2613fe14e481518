import { z } from 'zod';

// The routes under `/api/integrations/<slug>/` besides the actions route (whose envelope is the
// sdk's `ActionEnvelope`, shared by the host, the harness and the hooks): activation, storage,
// the OAuth connection's status, accepted webhooks and the delivery log.

/** `data` of `GET /api/integrations/<slug>/activation?accountId=`. */
export const activationResponseSchema = z.union([
  z.object({ active: z.literal(false), data: z.null() }),
  z.object({ active: z.literal(true), data: z.unknown(), activatedAt: z.string(), updatedAt: z.string() }),
]);
export type ActivationResponse = z.output<typeof activationResponseSchema>;

/**
 * Body of `POST /api/integrations/<slug>/activation` (optional: no body keeps the data there is)
 * and of `PUT .../activation/data` (where `data` is required).
 */
export const activationRequestSchema = z.object({ data: z.unknown().exactOptional() });
export type ActivationRequest = z.output<typeof activationRequestSchema>;

/** How the integration's `onActivate` ended: it ran (or there is none), or its error code. */
export const onActivateResultSchema = z.union([
  z.object({ ok: z.literal(true), ran: z.boolean() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type OnActivateResult = z.output<typeof onActivateResultSchema>;

/** `data` of `POST /api/integrations/<slug>/activation` (201 when it was created, else 200). */
export const activateResponseSchema = z.object({
  active: z.literal(true),
  created: z.boolean(),
  data: z.unknown(),
  /** Present when `onActivate` ran: on creation, or when the data changed. */
  onActivate: onActivateResultSchema.exactOptional(),
});
export type ActivateResponse = z.output<typeof activateResponseSchema>;

/** `data` of `PUT /api/integrations/<slug>/activation/data`. */
export const activationDataResponseSchema = z.object({
  active: z.literal(true),
  data: z.unknown(),
  onActivate: onActivateResultSchema,
});
export type ActivationDataResponse = z.output<typeof activationDataResponseSchema>;

/** `data` of `DELETE /api/integrations/<slug>/activation`. */
export const deactivateResponseSchema = z.object({ active: z.literal(false), removed: z.boolean() });
export type DeactivateResponse = z.output<typeof deactivateResponseSchema>;

/** `data` of `GET /api/integrations/<slug>/storage?keys=`: each key asked for, `null` when unset. */
export const storageResponseSchema = z.record(z.string(), z.unknown());
export type StorageResponse = z.output<typeof storageResponseSchema>;

/**
 * An OAuth connection's health (issue 51): `healthy`; `refreshing` while the host refreshes its
 * token; `backoff` after failed refreshes (the host tries again at `nextRefreshAt`); `exhausted`
 * once they failed for days, and `revoked` when the provider refused the refresh token (both need
 * the account to connect again). Times are ISO 8601; `failingDays` counts the days since the
 * first failure in a row (0 when not failing).
 */
export const connectionHealthSchema = z.object({
  state: z.enum(['healthy', 'refreshing', 'backoff', 'exhausted', 'revoked']),
  lastSuccessAt: z.string().nullable(),
  lastFailure: z.object({ at: z.string(), reason: z.string() }).nullable(),
  nextRefreshAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  failingDays: z.number().int().nonnegative(),
});
export type ConnectionHealth = z.output<typeof connectionHealthSchema>;

/** `data` of `GET /api/integrations/<slug>/oauth/status?accountId=`. */
export const oauthStatusResponseSchema = z.union([
  z.object({ connected: z.literal(false) }),
  z.object({
    connected: z.literal(true),
    connectedAt: z.string(),
    scope: z.string().exactOptional(),
    /** The production host's refresh state; absent from the local harness, which refreshes nothing. */
    health: connectionHealthSchema.exactOptional(),
  }),
]);
export type OAuthStatusResponse = z.output<typeof oauthStatusResponseSchema>;

/** `data` of a webhook the host accepted and queued (202). */
export const webhookAcceptedResponseSchema = z.object({ deliveryId: z.string() });
export type WebhookAcceptedResponse = z.output<typeof webhookAcceptedResponseSchema>;

/** One line of the delivery and run log: a webhook delivery or a schedule run. */
export const deliveryEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(['webhook', 'schedule', 'gate']),
  integration: z.string(),
  accountId: z.string(),
  target: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  attempts: z.number(),
  receivedAt: z.string(),
  runAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** Redacted. */
  error: z.string().nullable(),
  /** Runs retried because another call changed storage they read (not counted in `attempts`). */
  conflictRetries: z.number(),
  /** The instance running it, or the one that finished it. */
  instance: z.string().nullable(),
});
export type DeliveryEntry = z.output<typeof deliveryEntrySchema>;

/** `data` of `GET /api/integrations/<slug>/deliveries?accountId=[&limit=]`, newest first. */
export const deliveriesResponseSchema = z.object({ entries: z.array(deliveryEntrySchema) });
export type DeliveriesResponse = z.output<typeof deliveriesResponseSchema>;
