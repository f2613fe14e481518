import type { McpConsentDecision, McpConsentResponse } from '@platform/wire';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ApiError, api } from '../api.js';
import { useLocation } from '../router.js';
import { ErrorNotice, Loading } from '../ui.js';

/**
 * `/oauth/consent?<authorization request>`: an MCP client asks for an account's tools. The page
 * names the client and where it sends the browser back, lets the person pick the account, lists
 * every tool the client will get with its effect and sensitivity, and asks "Allow" or "Deny";
 * either answer goes back to the client (the host checked the request and issues the code).
 */
export function OAuthConsent(): ReactNode {
  const location = useLocation();
  const request = location.search.replace(/^\?/, '');
  const consent = useQuery({
    queryKey: ['mcp-consent', request],
    queryFn: () => api<McpConsentResponse>('GET', `/api/platform/mcp/consent?${request}`),
    retry: false,
  });
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const decide = useMutation({
    mutationFn: (decision: 'allow' | 'deny') =>
      api<McpConsentDecision>('POST', '/api/platform/mcp/consent', {
        request,
        decision,
        ...(accountId === undefined ? {} : { accountId }),
      }),
    // The client's redirect URI (another origin, or a loopback port): a full navigation.
    onSuccess: (answer) => window.location.assign(answer.redirectTo),
  });
  if (consent.isPending) return <Loading label="Loading the request" />;
  if (consent.isError) return <ErrorNotice error={consent.error} />;
  const { client, accounts } = consent.data;
  const accountId = picked ?? accounts[0]?.id;
  const account = accounts.find((found) => found.id === accountId);
  return (
    <section aria-labelledby="consent-title" className="app-consent">
      <h1 id="consent-title">Allow {client.name} to use your tools?</h1>
      <p>
        <strong>{client.name}</strong> is an MCP client (an assistant). If you allow it, it can call the tools
        below in the account you pick, as you; tools that change things still ask you first unless the account
        allows them. You go back to <strong>{client.redirectHost}</strong>.
      </p>
      {accounts.length === 0 ? (
        <p className="app-muted">You are not a member of any account, so there is nothing to allow.</p>
      ) : (
        <label>
          Account it may use{' '}
          <select value={accountId} onChange={(event) => setPicked(event.target.value)}>
            {accounts.map((found) => (
              <option key={found.id} value={found.id}>
                {found.name} ({found.slug})
              </option>
            ))}
          </select>
        </label>
      )}
      {account !== undefined && (
        <section aria-labelledby="consent-tools">
          <h2 id="consent-tools">
            Tools {client.name} will get in {account.name}
          </h2>
          {account.tools.length === 0 ? (
            <p className="app-muted">No activated integration of this account offers tools yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Integration</th>
                  <th scope="col">Effect</th>
                  <th scope="col">Sensitivity</th>
                </tr>
              </thead>
              <tbody>
                {account.tools.map((tool) => (
                  <tr key={tool.name}>
                    <td>
                      <code>{tool.name}</code>
                      <div className="app-muted">{tool.description}</div>
                    </td>
                    <td>{tool.integration}</td>
                    <td>{tool.effect}</td>
                    <td>{tool.sensitivity}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {decide.isError && (
        <p role="alert" className="app-error">
          {decide.error instanceof ApiError ? decide.error.text : 'The answer was not sent; try again.'}
        </p>
      )}
      <div className="app-actions">
        <button
          type="button"
          disabled={account === undefined || decide.isPending}
          onClick={() => decide.mutate('allow')}
        >
          Allow
        </button>
        <button type="button" disabled={decide.isPending} onClick={() => decide.mutate('deny')}>
          Deny
        </button>
      </div>
    </section>
  );
}
