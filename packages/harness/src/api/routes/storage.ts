import { parseStorageRouteQuery } from '@platform/sdk/runtime';
import type { OkEnvelope, StorageResponse } from '@platform/wire';
import { Hono } from 'hono';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';
import { openCall } from '../openCall.js';

/**
 * `GET /api/integrations/<slug>/storage?keys=k1,k2[&scope=account|user]`: the storage bridge, in
 * the host's wire shape `{ ok: true, data: { k1: value | null } }`, read from the variant's mock
 * state (fixtures) or the live store (live). Only declared keys; `accountId` is accepted and
 * ignored (the harness has one account).
 */
export function storageRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  app.get('/storage', async (c) => {
    const call = c.get('call');
    const parsed = parseStorageRouteQuery(
      { scope: c.req.query('scope'), keys: c.req.query('keys') },
      (scope) => Object.keys(call.entry.definition?.storage?.[scope] ?? {}),
    );
    if (!parsed.ok) return errorResponse(c, 400, 'invalid_input', parsed.message);
    const { scope, keys } = parsed.query;
    const stored = (await openCall(api, call, 'user').snapshot())[scope];
    return c.json({
      ok: true,
      data: Object.fromEntries(keys.map((key) => [key, Object.hasOwn(stored, key) ? stored[key] : null])),
    } satisfies OkEnvelope<StorageResponse>);
  });
  return app;
}
