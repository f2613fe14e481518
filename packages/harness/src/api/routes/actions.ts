import { ACTION_ERROR_STATUS, invokeAction } from '@platform/sdk/runtime';
import { Hono } from 'hono';
import { HARNESS_HEADERS } from '../../hooks/harnessRequestHeaders.js';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';
import { openCall } from '../openCall.js';

/**
 * `POST /api/integrations/<slug>/actions/<name>`: the harness form of the actions route. The sdk's
 * `invokeAction` in `harness` mode does the work: input validation, the handler, output validation,
 * `Action failed.` plus `devError` for any throw (a `PublicActionError` too), never `rate_limited`.
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
    const { ctx, hops } = openCall(api, call, 'user');
    const envelope = await invokeAction(definition, c.req.param('action'), await c.req.text(), ctx, {
      mode: 'harness',
    });
    // The handler's `ctx.fetch` hops, for the page's request log (the last 20, redacted).
    if (hops.length > 0) c.header(HARNESS_HEADERS.hops, encodeURIComponent(JSON.stringify(hops.slice(-20))));
    return c.json(envelope, envelope.ok ? 200 : ACTION_ERROR_STATUS[envelope.error.code]);
  });
  return app;
}
