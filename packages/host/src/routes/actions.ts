import { StorageConflictError } from '@platform/sdk/integration';
import { ACTION_FAILED_MESSAGE, actionErrorResponse, STORAGE_CONFLICT_MESSAGE } from '@platform/sdk/runtime';
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { callCapabilities } from '../capabilities/callCapabilities.js';
import type { HostServices } from '../HostServices.js';
import { checkStateChange } from './_auth.js';
import { bodyLimit } from './_bodyLimit.js';
import { resolveCall } from './_call.js';
import { consumeCallRate } from './_callRate.js';
import { errorResponse, requestIdOf } from './_errors.js';

/** `POST /api/integrations/<slug>/actions/<name>?accountId=`: the production actions route. */
export function actionRoutes(services: HostServices): Hono {
  const app = new Hono();
  app.post(
    '/:slug/actions/:action',
    bodyLimit({
      maxSize: services.limits.actionBodyBytes,
      onError: (c) =>
        errorResponse(
          c,
          413,
          'payload_too_large',
          `The body is larger than ${services.limits.actionBodyBytes} bytes; send less data per call.`,
        ),
    }),
    async (c) => {
      checkStateChange(services, c, { requireJson: true });
      const target = await resolveCall(services, c);
      const limit = await consumeCallRate(services, {
        integration: target.version.slug,
        accountId: target.accountId,
        userId: target.user.id,
        requestId: requestIdOf(c),
        what: 'action call',
      });
      if (!limit.allowed) {
        c.header('Retry-After', String(limit.retryAfterSeconds));
        return errorResponse(
          c,
          429,
          'rate_limited',
          `Too many action calls; retry in ${limit.retryAfterSeconds} s.`,
        );
      }
      const rawBody = await c.req.text();
      const { capabilities, commit, conflict } = callCapabilities(services, {
        version: target.version,
        accountId: target.accountId,
        userId: target.user.id,
        requestId: requestIdOf(c),
      });
      const conflicted = (error: StorageConflictError) =>
        conflictResponse(
          c,
          services,
          { integration: target.version.slug, accountId: target.accountId },
          error,
        );
      const envelope = await services.runtime.invokeAction({
        version: target.version,
        capabilities,
        actor: { kind: 'user', userId: target.user.id, accountId: target.accountId },
        timeoutMs: services.limits.actionTimeoutMs,
        actionName: c.req.param('action'),
        rawBody,
      });
      if (!envelope.ok) {
        // The host's own record decides, whatever the guest answered: a checkpoint conflicted.
        const found = conflict();
        if (found !== undefined) return conflicted(found);
        // The envelope is partner code's answer: its status counts only as a handler_error's 4xx.
        const { status, body } = actionErrorResponse(envelope.error);
        return c.json(body, status as ContentfulStatusCode);
      }
      try {
        await commit();
      } catch (error) {
        if (error instanceof StorageConflictError) return conflicted(error);
        services.logger.error(
          { err: error, integration: target.version.slug },
          "saving the action's storage writes failed",
        );
        return c.json({ ok: false, error: { code: 'handler_error', message: ACTION_FAILED_MESSAGE } }, 500);
      }
      return c.json(envelope, 200);
    },
  );
  return app;
}

/**
 * 409 `conflict`: another call changed storage this call read, so nothing after its last
 * checkpoint was saved and the caller may retry. Expected under concurrency: one info line, no stack.
 */
function conflictResponse(
  c: Context,
  services: HostServices,
  call: { integration: string; accountId: string },
  error: StorageConflictError,
): Response {
  services.logger.info(
    { ...call, requestId: requestIdOf(c), scope: error.scope, key: error.key },
    'action call conflicted on storage: answered 409 conflict',
  );
  return c.json({ ok: false, error: { code: 'conflict', message: STORAGE_CONFLICT_MESSAGE } }, 409);
}
