import type { HostServices } from '../HostServices.js';
import { findAccount, membershipRole, type User, unknownAccount } from '../store/users.js';
import { RouteError } from './_errors.js';

/**
 * The account (by id or slug) of a `/api/platform/accounts/:account/...` route, if `user` is a
 * member: 404 `account_not_found` otherwise, the same answer as no such account so account names
 * do not leak. `manage` (what the route does, "set tool policies") also requires an owner or admin:
 * 403 `forbidden` for a member.
 * @example const account = await memberAccount(services, user, c.req.param('account'));
 */
export async function memberAccount(
  services: HostServices,
  user: User,
  ref: string,
  options: { manage?: string } = {},
): Promise<{ id: string; slug: string; name: string }> {
  const account = await findAccount(services.db, ref);
  const role = account === undefined ? undefined : await membershipRole(services.db, account.id, user.id);
  if (account === undefined || role === undefined) {
    throw new RouteError(404, 'account_not_found', `${unknownAccount(ref)} among your accounts.`, {
      hint: 'GET /api/platform/me lists your accounts.',
    });
  }
  if (options.manage !== undefined && role === 'member') {
    throw new RouteError(
      403,
      'forbidden',
      `Only owners and admins of account "${account.slug}" ${options.manage}.`,
      {
        hint: 'Ask an owner or admin of the account.',
      },
    );
  }
  return account;
}
