import type { AccountMembersResponse } from '@platform/wire';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '../api.js';
import { useSession } from '../session.js';
import { ErrorNotice, Loading, When } from '../ui.js';

/**
 * The account's members with their roles, for owners and admins (`GET
 * /api/platform/accounts/:account/members`); a plain member sees no section (the host would
 * answer 403).
 */
export function AccountMembers(): ReactNode {
  const { account } = useSession();
  const slug = account?.slug ?? '';
  const manager = account?.role === 'owner' || account?.role === 'admin';
  const members = useQuery({
    queryKey: ['members', slug],
    queryFn: () =>
      api<AccountMembersResponse>('GET', `/api/platform/accounts/${encodeURIComponent(slug)}/members`),
    enabled: account !== undefined && manager,
  });
  if (account === undefined || !manager) return null;
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members of {account.name}</h2>
      {members.isPending && <Loading label="Loading members" />}
      {members.isError && <ErrorNotice error={members.error} />}
      {members.data !== undefined && (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Member since</th>
            </tr>
          </thead>
          <tbody>
            {members.data.members.map((member) => (
              <tr key={member.userId}>
                <td>{member.name}</td>
                <td>{member.email}</td>
                <td>{member.role}</td>
                <td>
                  <When at={member.since} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
