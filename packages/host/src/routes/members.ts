import type { AccountMembersResponse } from '@platform/wire';
import { Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { accountMembers } from '../store/users.js';
import { memberAccount } from './_account.js';
import { requireCliUser } from './_auth.js';

/**
 * An account's members, for the web app's settings page: `GET /accounts/:account/members` ->
 * `{ members: [{ userId, email, name, role, since }] }`, owners first. Owners and admins only (a
 * member gets 403 `forbidden`, a non-member the same 404 as an unknown account); a session cookie
 * or a token with `read`.
 * @example app.route('/api/platform', memberRoutes(services));
 */
export function memberRoutes(services: HostServices): Hono {
  const app = new Hono();
  app.get('/accounts/:account/members', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    const { account } = await memberAccount(services, user, c.req.param('account'), 'see its members');
    const members = await accountMembers(services.db, account.id);
    const data = {
      members: members.map((member) => ({ ...member, since: member.since.toISOString() })),
    } satisfies AccountMembersResponse;
    return c.json({ ok: true, data });
  });
  return app;
}
