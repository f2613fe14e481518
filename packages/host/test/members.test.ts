// GET /api/platform/accounts/:account/members: the settings page's members list, owners and admins only.
import type { AccountMembersResponse } from '@platform/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({ projects: [] });
});
afterAll(() => host?.close());

const members = (account = host.accountId) => `/api/platform/accounts/${account}/members`;
const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('GET /api/platform/accounts/:account/members', () => {
  it('lists the members for an owner and an admin, owners first, with role and since', async () => {
    const admin = await host.addUser('admin');
    const member = await host.addUser('member');
    for (const token of [host.token, admin.token]) {
      const response = await host.call(members(), as(token));
      expect(response.status, await response.clone().text()).toBe(200);
      const { data } = (await response.json()) as { data: AccountMembersResponse };
      expect(data.members.map((entry) => [entry.userId, entry.role])).toEqual([
        [host.userId, 'owner'],
        [admin.userId, 'admin'],
        [member.userId, 'member'],
      ]);
      expect(data.members[0]).toEqual({
        userId: host.userId,
        email: host.email,
        name: 'Owner',
        role: 'owner',
        since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    }
  });

  it('refuses a member with 403, a non-member and an unknown account with the same 404', async () => {
    const member = await host.addUser('member');
    const refused = await host.call(members(), as(member.token));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { code: 'forbidden', message: expect.stringContaining('see its members') },
    });
    const stranger = await host.addUser('member', { member: false });
    for (const response of [
      await host.call(members(), as(stranger.token)),
      await host.call(members('nope')),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'account_not_found' } });
    }
    expect((await host.app.request(members())).status).toBe(401);
    const publishOnly = await createToken(host.db, {
      userId: host.userId,
      kind: 'token',
      scopes: ['publish'],
    });
    expect((await host.call(members(), as(publishOnly.token))).status).toBe(403);
  });
});
