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
    const scope = c.req.query('scope') ?? 'account';
    if (scope !== 'account' && scope !== 'user') {
      return errorResponse(c, 400, 'invalid_input', `scope must be "account" or "user", not "${scope}".`);
    }
    const keys = (c.req.query('keys') ?? '').split(',').filter((key) => key !== '');
    if (keys.length === 0) {
      return errorResponse(
        c,
        400,
        'invalid_input',
        'Add keys=<key>[,<key>...] naming the storage keys to read.',
      );
    }
    const declared = Object.keys(call.entry.definition?.storage?.[scope] ?? {});
    const undeclared = keys.filter((key) => !declared.includes(key));
    if (undeclared.length > 0) {
      return errorResponse(
        c,
        400,
        'invalid_input',
        `Storage key${undeclared.length === 1 ? '' : 's'} ${undeclared.map((key) => `"${key}"`).join(', ')} not declared under storage.${scope}; declared: ${declared.join(', ') || 'none'}.`,
      );
    }
    const stored = (await openCall(api, call, 'user').snapshot())[scope];
    return c.json({
      ok: true,
      data: Object.fromEntries(keys.map((key) => [key, Object.hasOwn(stored, key) ? stored[key] : null])),
    });
  });
  return app;
}
