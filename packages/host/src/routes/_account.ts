import type { HostServices } from '../HostServices.js';
import {
  findAccount,
  type MembershipRole,
  membershipRole,
  type User,
  unknownAccount,
} from '../store/users.js';
import { RouteError } from './_errors.js';

/** The roles that manage an account: set tool policies, activate and deactivate integrations. */
export const ACCOUNT_MANAGERS: readonly MembershipRole[] = ['owner', 'admin'];

/**
 * The account `ref` (id or slug) of a `/api/platform/accounts/:account/...` route and the caller's
 * role in it. A non-member gets the same 404 `account_not_found` as an unknown account, so account
 * names do not leak; with `manage` (what only owners and admins do, e.g. "set tool policies"), a
 * plain member gets 403 `forbidden`.
 * @example const { account, role } = await memberAccount(services, user, c.req.param('account'));
 */
export async function memberAccount(
  services: HostServices,
  user: User,
  ref: string,
  manage?: string,
): Promise<{ account: { id: string; slug: string; name: string }; role: MembershipRole }> {
  const account = await findAccount(services.db, ref);
  const role = account === undefined ? undefined : await membershipRole(services.db, account.id, user.id);
  if (account === undefined || role === undefined) {
    throw new RouteError(404, 'account_not_found', `${unknownAccount(ref)} among your accounts.`, {
      hint: 'GET /api/platform/me lists your accounts.',
    });
  }
  if (manage !== undefined && !ACCOUNT_MANAGERS.includes(role)) {
    throw new RouteError(403, 'forbidden', `Only owners and admins of account "${account.slug}" ${manage}.`, {
      hint: 'Ask an owner or admin of the account.',
    });
  }
  return { account, role };
}
