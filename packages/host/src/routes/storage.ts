import { parseStorageRouteQuery } from '@platform/sdk/runtime';
import { Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { readStorage } from '../store/storage.js';
import { resolveCall } from './_call.js';
import { errorResponse } from './_errors.js';

/**
 * `GET /api/integrations/<slug>/storage?accountId=A&keys=k1,k2[&scope=account|user]` answering
 * `{ ok: true, data: { k1: value | null } }`; only declared keys can be read.
 */
export function storageRoutes(services: HostServices): Hono {
  const app = new Hono();
  app.get('/:slug/storage', async (c) => {
    const target = await resolveCall(services, c);
    const parsed = parseStorageRouteQuery(
      { scope: c.req.query('scope'), keys: c.req.query('keys') },
      (scope) => target.version.manifest.storage[scope],
    );
    if (!parsed.ok) return errorResponse(c, 400, 'invalid_input', parsed.message);
    const { scope, keys } = parsed.query;
    const values = await readStorage(
      services.db,
      {
        slug: target.version.slug,
        accountId: target.accountId,
        scope,
        userId: scope === 'user' ? target.user.id : '',
      },
      keys,
    );
    return c.json({ ok: true, data: Object.fromEntries(keys.map((key) => [key, values.get(key) ?? null])) });
  });
  return app;
}
