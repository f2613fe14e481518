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
    const scope = c.req.query('scope') ?? 'account';
    if (scope !== 'account' && scope !== 'user') {
      return errorResponse(c, 400, 'invalid_input', `scope must be "account" or "user", not "${scope}".`);
    }
    const keys = (c.req.query('keys') ?? '').split(',').filter((key) => key !== '');
    if (keys.length === 0)
      return errorResponse(
        c,
        400,
        'invalid_input',
        'Add keys=<key>[,<key>...] naming the storage keys to read.',
      );
    const declared = target.version.manifest.storage[scope];
    const undeclared = keys.filter((key) => !declared.includes(key));
    if (undeclared.length > 0) {
      return errorResponse(
        c,
        400,
        'invalid_input',
        `Storage key${undeclared.length === 1 ? '' : 's'} ${undeclared.map((key) => `"${key}"`).join(', ')} not declared under storage.${scope}; declared: ${declared.join(', ') || 'none'}.`,
      );
    }
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
