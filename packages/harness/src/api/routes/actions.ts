import { StorageConflictError } from '@platform/sdk/integration';
import {
  type ActionEnvelope,
  actionErrorResponse,
  invokeAction,
  STORAGE_CONFLICT_MESSAGE,
} from '@platform/sdk/runtime';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HARNESS_HEADERS } from '../../hooks/harnessRequestHeaders.js';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';
import { openCall } from '../openCall.js';

/**
 * `POST /api/integrations/<slug>/actions/<name>`: the harness form of the actions route. The sdk's
 * `invokeAction` in `harness` mode does the work: input validation, the handler, output validation,
 * `Action failed.` plus `devError` for any throw (a `PublicActionError` too, under its 4xx status),
 * never `rate_limited`.
 * Fixtures mode runs on the variant's mock state, live mode on the server-held live context.
 */
export function actionRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  app.post('/actions/:action', async (c) => {
    const call = c.get('call');
    const definition = call.entry.definition;
    if (definition === undefined) {
      return errorResponse(
        c,
        404,
        'action_not_found',
        `"${call.entry.slug}" has no definition in harness.config.ts, so it serves no actions; add definition: asHarnessDefinition(yourDefinition) to its entry.`,
      );
    }
    const opened = openCall(api, call, 'user');
    const { ctx, hops } = opened;
    let envelope: ActionEnvelope = await invokeAction(
      definition,
      c.req.param('action'),
      await c.req.text(),
      ctx,
      { mode: 'harness' },
    );
    // As on the host: the writes are saved only now, and a conflict (here or at a checkpoint) is
    // `conflict`, never a handler bug.
    const conflict: ActionEnvelope = {
      ok: false,
      error: { code: 'conflict', message: STORAGE_CONFLICT_MESSAGE },
    };
    if (!envelope.ok && opened.conflict() !== undefined) envelope = conflict;
    if (envelope.ok) {
      try {
        await opened.commit();
      } catch (error) {
        if (!(error instanceof StorageConflictError)) throw error;
        envelope = conflict;
      }
    }
    // The handler's `ctx.fetch` hops, for the page's request log (the last 20, redacted).
    if (hops.length > 0) c.header(HARNESS_HEADERS.hops, encodeURIComponent(JSON.stringify(hops.slice(-20))));
    if (envelope.ok) return c.json(envelope, 200);
    // A PublicActionError's 4xx answers here too (message still `Action failed.`), so a widget's
    // branch on the status can be tried locally.
    const { status, body } = actionErrorResponse(envelope.error);
    return c.json(body, status as ContentfulStatusCode);
  });
  return app;
}
