import type {
  CreateTokenResponse,
  MfaStatusResponse,
  SessionsResponse,
  TokensResponse,
  TotpSetupResponse,
} from '@platform/wire';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ApiError, api } from '../api.js';
import { ErrorNotice, Loading, When } from '../ui.js';
import { AccountMembers } from './AccountMembers.js';
import { McpGrants } from './McpGrants.js';
import { ToolPolicies } from './ToolPolicies.js';

/**
 * `/settings`: personal access tokens, sessions, the authenticator and the connected assistants (MCP
 * grants) of the signed-in user; the account's tool policies for models and, for owners and
 * admins, its members.
 */
export function Settings(): ReactNode {
  return (
    <>
      <h1>Settings</h1>
      <Tokens />
      <Sessions />
      <Authenticator />
      <McpGrants />
      <ToolPolicies />
      <AccountMembers />
    </>
  );
}

function errorText(error: unknown): string {
  return error instanceof ApiError ? error.text : 'The host did not answer; try again.';
}

function Tokens(): ReactNode {
  const queryClient = useQueryClient();
  const tokens = useQuery({
    queryKey: ['tokens'],
    queryFn: () => api<TokensResponse>('GET', '/api/platform/tokens'),
  });
  const [created, setCreated] = useState<CreateTokenResponse | undefined>();
  const create = useMutation({
    mutationFn: (name: string) =>
      api<CreateTokenResponse>('POST', '/api/platform/tokens', { name, scopes: ['read'] }),
    onSuccess: (token) => {
      setCreated(token);
      void queryClient.invalidateQueries({ queryKey: ['tokens'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api('DELETE', `/api/platform/tokens/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tokens'] }),
  });
  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('token-name') ?? '');
    create.mutate(name);
    event.currentTarget.reset();
  };
  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal access tokens</h2>
      <form onSubmit={onCreate} className="app-inline-form">
        <label htmlFor="token-name">Token name</label>
        <input id="token-name" name="token-name" required maxLength={100} />
        <button type="submit" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {create.isError && (
        <p role="alert" className="app-error">
          {errorText(create.error)}
        </p>
      )}
      {created !== undefined && (
        <p role="status" className="app-notice">
          Token “{created.name}” (read only): <code>{created.token}</code> — copy it now, it is not shown
          again.
        </p>
      )}
      {tokens.isPending && <Loading label="Loading tokens" />}
      {tokens.isError && <ErrorNotice error={tokens.error} />}
      {tokens.data !== undefined &&
        (tokens.data.tokens.length === 0 ? (
          <p className="app-muted">No personal access tokens.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="app-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.tokens.map((token) => (
                <tr key={token.id}>
                  <td>{token.name ?? '(no name)'}</td>
                  <td>{token.scopes.join(', ')}</td>
                  <td>
                    <When at={token.lastUsedAt} never="Never" />
                    {token.lastUsedAddress !== null && (
                      <span className="app-muted"> from {token.lastUsedAddress}</span>
                    )}
                  </td>
                  <td>
                    <When at={token.expiresAt} never="Never" />
                  </td>
                  <td>
                    <button
                      type="button"
                      onClick={() => revoke.mutate(token.id)}
                      aria-label={`Revoke token ${token.name ?? token.id}`}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}

function Sessions(): ReactNode {
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: ['sessions'],
    queryFn: () => api<SessionsResponse>('GET', '/api/platform/sessions'),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api('DELETE', `/api/platform/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sessions'] }),
  });
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      {sessions.isPending && <Loading label="Loading sessions" />}
      {sessions.isError && <ErrorNotice error={sessions.error} />}
      {revoke.isError && (
        <p role="alert" className="app-error">
          {errorText(revoke.error)}
        </p>
      )}
      {sessions.data !== undefined && (
        <ul className="app-list">
          {sessions.data.sessions.map((session) => (
            <li key={session.id}>
              <span>
                {session.kind === 'cli' ? `CLI: ${session.name ?? '(no name)'}` : 'Browser'}
                {session.current && <strong> (this session)</strong>}
              </span>
              <span className="app-muted">
                {' '}
                last used <When at={session.lastUsedAt} never="never" />
              </span>
              {!session.current && (
                <button type="button" onClick={() => revoke.mutate(session.id)}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Authenticator(): ReactNode {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: ['mfa'],
    queryFn: () => api<MfaStatusResponse>('GET', '/api/platform/mfa'),
  });
  const [setup, setSetup] = useState<TotpSetupResponse | undefined>();
  const start = useMutation({
    mutationFn: () => api<TotpSetupResponse>('POST', '/api/platform/mfa/totp'),
    onSuccess: setSetup,
  });
  const confirm = useMutation({
    mutationFn: (code: string) => api('POST', '/api/platform/mfa/totp/confirm', { code }),
    onSuccess: () => {
      setSetup(undefined);
      void queryClient.invalidateQueries({ queryKey: ['mfa'] });
    },
  });
  const onConfirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    confirm.mutate(String(new FormData(event.currentTarget).get('totp-code') ?? ''));
  };
  return (
    <section aria-labelledby="mfa-title">
      <h2 id="mfa-title">Authenticator</h2>
      {status.isPending && <Loading label="Loading" />}
      {status.isError && <ErrorNotice error={status.error} />}
      {status.data?.totp.enabled === true && <p>Signing in asks for a code from your authenticator app.</p>}
      {status.data?.totp.enabled === false && setup === undefined && (
        <>
          <p>Signing in asks for your password only.</p>
          <button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
            Set up an authenticator
          </button>
        </>
      )}
      {setup !== undefined && (
        <form onSubmit={onConfirm}>
          <p>
            Add this secret to your authenticator app: <code>{setup.secret}</code>
          </p>
          <label htmlFor="totp-code">Code from the app</label>
          <input id="totp-code" name="totp-code" inputMode="numeric" autoComplete="one-time-code" required />
          <button type="submit" disabled={confirm.isPending}>
            Turn on
          </button>
        </form>
      )}
      {(start.isError || confirm.isError) && (
        <p role="alert" className="app-error">
          {errorText(start.error ?? confirm.error)}
        </p>
      )}
    </section>
  );
}
