import { Hono } from 'hono';
import { listJobs } from '../events/jobLog.js';
import type { HostServices } from '../HostServices.js';
import { resolveCall } from './_call.js';
import { RouteError } from './_errors.js';

/**
 * `GET /api/integrations/<slug>/deliveries?accountId=[&limit=]`: the account's webhook delivery
 * and schedule run log, newest first (received, attempts, outcome, duration, redacted error).
 */
export function deliveryRoutes(services: HostServices): Hono {
  const app = new Hono();
  app.get('/:slug/deliveries', async (c) => {
    const target = await resolveCall(services, c, { allowInactive: true });
    const limitParam = c.req.query('limit') ?? '50';
    const limit = Number(limitParam);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      throw new RouteError(400, 'invalid_request', `limit "${limitParam}" must be an integer from 1 to 500.`);
    }
    const entries = await listJobs(services.db, {
      slug: target.version.slug,
      accountId: target.accountId,
      limit,
    });
    return c.json({ ok: true, data: { entries } });
  });
  return app;
}
