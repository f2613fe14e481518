import {
  createPartnerConnectionCheck,
  type PartnerConnectionStatus,
  partnerOAuthConnectPath,
  partnerOAuthErrorParam,
} from '@platform/sdk/hooks';
import { OAuthActivationForm } from '@platform/ui';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { HARNESS_ACCOUNT_ID } from '../registry/index.js';
import { surfacePath } from './_router.js';
import { apiPath, useEntryPage } from './_shellContext.js';
import { ConnectionFieldsForm } from './ConnectionFieldsForm.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { LocalSetupForm } from './LocalSetupForm.js';

/**
 * `/<slug>/activation`: the activation form inline (or, for an OAuth definition without one, the
 * stock `OAuthActivationForm`), the connection state, the OAuth setup notes, and in live mode the
 * fields of an apiKey or basic `connection` and the local credentials form.
 */
export function ActivationSurface(): ReactNode {
  const { entry, toolbar, activation } = useEntryPage();
  const Form = entry.activationForm;
  const declaresOAuth = entry.definition?.oauth !== undefined || entry.oauth !== undefined;
  const returnPath = surfacePath(entry.slug, 'activation');
  const oauthProps = useMemo(
    () => ({
      connectPath: partnerOAuthConnectPath(entry.slug),
      checkConnection: createPartnerConnectionCheck(entry.slug),
      errorParam: partnerOAuthErrorParam(entry.slug),
    }),
    [entry.slug],
  );

  return (
    <div className="harness-stack">
      <section aria-labelledby="harness-activation-form">
        <h3 id="harness-activation-form">Activation form</h3>
        <p className="harness-muted" role="status">
          {activation.activated ? 'Activated for the harness account.' : 'Not activated.'}
          {activation.activated && activation.data !== undefined ? (
            <>
              {' '}
              Activation data: <code>{JSON.stringify(activation.data)}</code>
            </>
          ) : null}
        </p>
        <div className="harness-partner">
          <ErrorBoundary what="The activation form failed to render.">
            {Form !== undefined ? (
              <Form slug={entry.slug} accountId={HARNESS_ACCOUNT_ID} returnPath={returnPath} />
            ) : entry.definition?.oauth !== undefined ? (
              <OAuthActivationForm
                slug={entry.slug}
                accountId={HARNESS_ACCOUNT_ID}
                returnPath={returnPath}
                providerName={entry.name}
                {...oauthProps}
              />
            ) : (
              <p>No activation form is registered for {entry.name}.</p>
            )}
          </ErrorBoundary>
        </div>
      </section>
      {declaresOAuth ? <ConnectionStatus /> : null}
      {declaresOAuth ? <OAuthSetup /> : null}
      {entry.definition?.connection !== undefined && toolbar.mode === 'live' ? (
        <ConnectionFieldsForm />
      ) : null}
      {toolbar.mode === 'live' ? <LocalSetupForm /> : null}
    </div>
  );
}

type StatusState =
  | { readonly state: 'checking' }
  | { readonly state: 'done'; readonly status: PartnerConnectionStatus }
  | { readonly state: 'failed'; readonly message: string };

function ConnectionStatus(): ReactNode {
  const { entry, fetch, toolbar } = useEntryPage();
  const [status, setStatus] = useState<StatusState>({ state: 'checking' });
  useEffect(() => {
    const controller = new AbortController();
    setStatus({ state: 'checking' });
    // The sdk's own check (what OAuthActivationForm uses), through the page's harness fetch.
    createPartnerConnectionCheck(entry.slug)(HARNESS_ACCOUNT_ID, { fetch, signal: controller.signal })
      .then((connection) => {
        if (!controller.signal.aborted) setStatus({ state: 'done', status: connection });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [entry.slug, fetch]);

  const source =
    toolbar.mode === 'live' ? 'the live store' : 'oauth.connected in harness.config.ts (fixtures mode)';
  return (
    <section aria-labelledby="harness-connection">
      <h3 id="harness-connection">Connection</h3>
      <div role="status" data-testid="connection-status">
        {status.state === 'checking' ? <p>Checking the connection…</p> : null}
        {status.state === 'failed' ? <p>The connection status could not be read: {status.message}</p> : null}
        {status.state === 'done' ? (
          <p>
            <span className={`harness-badge harness-badge--${status.status.connected ? 'ok' : 'off'}`}>
              {status.status.connected ? 'Connected' : 'Not connected'}
            </span>{' '}
            (from {source}
            {status.status.connectedAt === undefined ? '' : `, since ${status.status.connectedAt}`}
            {status.status.scope === undefined ? '' : `, scope ${status.status.scope}`})
          </p>
        ) : null}
      </div>
      <p className="harness-muted">
        Status route: <code>GET {apiPath(entry.slug, 'oauth/status')}</code>
      </p>
    </section>
  );
}

function OAuthSetup(): ReactNode {
  const { entry } = useEntryPage();
  const setup = entry.oauth?.setup;
  const callback = `${window.location.origin}${apiPath(entry.slug, 'oauth/callback')}`;
  return (
    <section aria-labelledby="harness-oauth-setup">
      <h3 id="harness-oauth-setup">OAuth setup</h3>
      <p>
        Redirect URI to register with the provider: <code>{callback}</code>
      </p>
      {setup?.consoleUrl === undefined ? (
        setup?.consoleLabel === undefined ? null : (
          <p>Provider console: {setup.consoleLabel}</p>
        )
      ) : (
        <p>
          <a href={setup.consoleUrl} target="_blank" rel="noreferrer">
            {setup.consoleLabel ?? 'Open the provider console'}
          </a>
        </p>
      )}
      {setup?.notes === undefined || setup.notes.length === 0 ? null : (
        <ul aria-label="Setup notes">
          {setup.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
