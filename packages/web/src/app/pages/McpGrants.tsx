import type { McpGrantsResponse, RevokeMcpGrantResponse } from '@platform/wire';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ApiError, api } from '../api.js';
import { useSession } from '../session.js';
import { ErrorNotice, Loading, When } from '../ui.js';

/**
 * "Connected assistants": the MCP clients the signed-in user allowed (`GET
 * /api/platform/mcp/grants`), each with the account it acts in, when it was allowed and last
 * used, and "Revoke" with a confirmation (`DELETE /api/platform/mcp/grants/:id`: its tokens stop
 * working at once). With none, how to connect one: this host's `/mcp` URL.
 */
export function McpGrants(): ReactNode {
  const queryClient = useQueryClient();
  const { me } = useSession();
  const grants = useQuery({
    queryKey: ['mcp-grants'],
    queryFn: () => api<McpGrantsResponse>('GET', '/api/platform/mcp/grants'),
  });
  const [confirming, setConfirming] = useState<string | undefined>();
  const [revoked, setRevoked] = useState<string | undefined>();
  const revoke = useMutation({
    mutationFn: (id: string) =>
      api<RevokeMcpGrantResponse>('DELETE', `/api/platform/mcp/grants/${encodeURIComponent(id)}`),
    onSuccess: (_answer, id) => {
      const name = grants.data?.grants.find((grant) => grant.id === id)?.clientName;
      setConfirming(undefined);
      setRevoked(name ?? id);
      return queryClient.invalidateQueries({ queryKey: ['mcp-grants'] });
    },
  });
  const accountName = (slug: string): string => {
    const found = me.accounts.find((account) => account.slug === slug);
    return found === undefined ? slug : `${found.name} (${slug})`;
  };
  const mcpUrl = `${window.location.origin}/mcp`;
  const pending = grants.data?.grants.find((grant) => grant.id === confirming);
  return (
    <section aria-labelledby="mcp-grants-title">
      <h2 id="mcp-grants-title">Connected assistants</h2>
      {revoked !== undefined && (
        <p role="status" className="app-notice">
          {revoked} is disconnected; its tokens no longer work.
        </p>
      )}
      {revoke.isError && (
        <p role="alert" className="app-error">
          {revoke.error instanceof ApiError ? revoke.error.text : 'The host did not answer; try again.'}
        </p>
      )}
      {grants.isPending && <Loading label="Loading connected assistants" />}
      {grants.isError && <ErrorNotice error={grants.error} />}
      {grants.data !== undefined &&
        (grants.data.grants.length === 0 ? (
          <p className="app-muted">
            No assistant is connected. To connect one, give an MCP client (an assistant) this host's URL{' '}
            <code>{mcpUrl}</code>; it opens a page here where you sign in and allow it.
          </p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Assistant</th>
                <th scope="col">Account</th>
                <th scope="col">Allowed</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="app-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {grants.data.grants.map((grant) => (
                <tr key={grant.id}>
                  <td>{grant.clientName}</td>
                  <td>{accountName(grant.accountSlug)}</td>
                  <td>
                    <When at={grant.createdAt} />
                  </td>
                  <td>
                    <When at={grant.lastUsedAt} never="Never" />
                  </td>
                  <td>
                    <button
                      type="button"
                      onClick={() => {
                        setRevoked(undefined);
                        setConfirming(grant.id);
                      }}
                      aria-label={`Revoke ${grant.clientName} in ${grant.accountSlug}`}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {pending !== undefined && (
        <fieldset className="app-confirm">
          <legend>Confirm revoking</legend>
          Disconnect {pending.clientName} from {accountName(pending.accountSlug)}? Its tokens stop working at
          once; it can use your tools again only after you allow it again.{' '}
          <button
            type="button"
            className="app-danger"
            disabled={revoke.isPending}
            onClick={() => revoke.mutate(pending.id)}
          >
            Yes, revoke
          </button>
          <button type="button" onClick={() => setConfirming(undefined)}>
            Cancel
          </button>
        </fieldset>
      )}
    </section>
  );
}
