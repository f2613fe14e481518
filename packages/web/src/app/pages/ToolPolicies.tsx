import type { AccountToolsResponse, ToolPolicyValue } from '@platform/wire';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError, api } from '../api.js';
import { useSession } from '../session.js';
import { ErrorNotice, Loading } from '../ui.js';

const POLICIES: readonly { value: ToolPolicyValue; label: string }[] = [
  { value: 'ask', label: 'Ask first' },
  { value: 'allow', label: 'Allow' },
  { value: 'block', label: 'Block' },
];

/**
 * The account's tools for models with their policies: owners and admins change them, members see
 * them. `asks` is the host's answer (write, destructive and high-sensitivity tools always ask
 * unless allowed).
 */
export function ToolPolicies(): ReactNode {
  const { account } = useSession();
  const queryClient = useQueryClient();
  const slug = account?.slug ?? '';
  const manager = account?.role === 'owner' || account?.role === 'admin';
  const tools = useQuery({
    queryKey: ['tools', slug],
    queryFn: () =>
      api<AccountToolsResponse>('GET', `/api/platform/accounts/${encodeURIComponent(slug)}/tools`),
    enabled: account !== undefined,
  });
  const setPolicy = useMutation({
    mutationFn: (input: { name: string; policy: ToolPolicyValue }) =>
      api(
        'PUT',
        `/api/platform/accounts/${encodeURIComponent(slug)}/tools/${encodeURIComponent(input.name)}/policy`,
        { policy: input.policy },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['tools', slug] }),
  });
  if (account === undefined) return null;
  return (
    <section aria-labelledby="tools-title">
      <h2 id="tools-title">Tools for models in {account.name}</h2>
      {!manager && <p className="app-muted">Only an account owner or admin can change these policies.</p>}
      {tools.isPending && <Loading label="Loading tools" />}
      {tools.isError && <ErrorNotice error={tools.error} />}
      {setPolicy.isError && (
        <p role="alert" className="app-error">
          {setPolicy.error instanceof ApiError
            ? setPolicy.error.text
            : 'The policy was not saved; try again.'}
        </p>
      )}
      {tools.data !== undefined &&
        (tools.data.tools.length === 0 ? (
          <p className="app-muted">No activated integration offers tools to models.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Integration</th>
                <th scope="col">Effect</th>
                <th scope="col">Sensitivity</th>
                <th scope="col">Policy</th>
              </tr>
            </thead>
            <tbody>
              {tools.data.tools.map((tool) => (
                <tr key={tool.name}>
                  <td>
                    <code>{tool.name}</code>
                    <div className="app-muted">{tool.description}</div>
                  </td>
                  <td>{tool.integration}</td>
                  <td>{tool.effect}</td>
                  <td>{tool.sensitivity}</td>
                  <td>
                    <select
                      aria-label={`Policy for ${tool.name}`}
                      value={tool.policy}
                      disabled={!manager || setPolicy.isPending}
                      onChange={(event) =>
                        setPolicy.mutate({ name: tool.name, policy: event.target.value as ToolPolicyValue })
                      }
                    >
                      {POLICIES.map((policy) => (
                        <option key={policy.value} value={policy.value}>
                          {policy.label}
                        </option>
                      ))}
                    </select>
                    {tool.asks && <div className="app-muted">asks the person first</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}
