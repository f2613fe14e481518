import { faCircleCheck, faPlug } from '@fortawesome/free-solid-svg-icons';
import {
  type PartnerConnectionCheck,
  type PartnerConnectionStatus,
  type PartnerOAuthError,
  type PartnerOAuthErrorParam,
  useIntegrationFetch,
} from '@platform/sdk/hooks';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { Alert } from '../_Alert.js';
import { Skeleton } from '../_Skeleton.js';
import { Icon } from '../icons/Icon.js';
import type { ActivationFormProps } from '../registryProps.js';

/** Every text the form shows; `labels` overrides any of them. */
export interface OAuthActivationFormLabels {
  readonly checking: string;
  readonly connected: (provider: string) => string;
  readonly notConnected: (provider: string) => string;
  readonly connectedSince: (date: string) => string;
  readonly connect: (provider: string) => string;
  readonly reconnect: string;
  /** The technical detail of a failed check, behind a "Details" disclosure. */
  readonly checkFailed: (message: string) => string;
  readonly checkAgain: string;
  // Optional so that label sets written for 0.4.0 still type-check; the defaults fill them in.
  readonly checkFailedTitle?: string;
  readonly checkFailedHint?: (provider: string) => string;
  readonly details?: string;
  /** The title over the callback's error message. */
  readonly callbackFailed?: (provider: string) => string;
}

const DEFAULT_LABELS: Required<OAuthActivationFormLabels> = {
  checking: 'Checking the connection…',
  connected: (provider) => `Connected to ${provider}.`,
  notConnected: (provider) => `Not connected to ${provider} yet.`,
  connectedSince: (date) => `Connected since ${date}.`,
  connect: (provider) => `Connect ${provider}`,
  reconnect: 'Reconnect',
  checkFailed: (message) => `The connection couldn’t be checked: ${message}`,
  checkAgain: 'Check again',
  checkFailedTitle: 'The connection couldn’t be checked',
  checkFailedHint: (provider) =>
    `Check again in a moment. If it keeps failing, ${provider} or the platform may be down.`,
  details: 'Details',
  callbackFailed: (provider) => `${provider} wasn’t connected`,
};

export interface OAuthActivationFormProps extends ActivationFormProps {
  /** `partnerOAuthConnectPath(slug)`. */
  readonly connectPath: string;
  /** `createPartnerConnectionCheck(slug)`. */
  readonly checkConnection: PartnerConnectionCheck;
  /** `partnerOAuthErrorParam(slug)`. */
  readonly errorParam: PartnerOAuthErrorParam;
  /** The provider's name, as people know it. Default: "the provider". */
  readonly providerName?: string;
  readonly labels?: Partial<OAuthActivationFormLabels>;
  /** For the connection date. Default `en`, matching the default labels. */
  readonly locale?: string;
}

type Check =
  | { readonly state: 'checking' }
  | { readonly state: 'done'; readonly status: PartnerConnectionStatus }
  | { readonly state: 'failed'; readonly message: string };

/**
 * An activation form for an OAuth integration: shows whether the account is connected, starts the
 * host's connect redirect (with `accountId` and `returnPath`), and shows the message for the
 * `<slug>_oauth_error` the callback put on the return URL.
 * @example
 * export function AcmeActivation(props: ActivationFormProps) {
 *   return <OAuthActivationForm {...props} providerName="Acme" connectPath={partnerOAuthConnectPath('acme-notes')}
 *     checkConnection={createPartnerConnectionCheck('acme-notes')} errorParam={partnerOAuthErrorParam('acme-notes')} />;
 * }
 */
export function OAuthActivationForm({
  accountId,
  returnPath,
  connectPath,
  checkConnection,
  errorParam,
  providerName = 'the provider',
  labels: labelOverrides,
  locale = 'en',
}: OAuthActivationFormProps): ReactNode {
  const labels = { ...DEFAULT_LABELS, ...labelOverrides };
  const fetch = useIntegrationFetch();
  const [check, setCheck] = useState<Check>({ state: 'checking' });
  const [attempt, setAttempt] = useState(0);
  // Read once: the error belongs to the redirect that brought the user here.
  const [callbackError] = useState<PartnerOAuthError | null>(() =>
    typeof window === 'undefined' ? null : errorParam.read(window.location.href),
  );

  useEffect(() => {
    // `attempt` re-runs the check when "Check again" is pressed.
    void attempt;
    const controller = new AbortController();
    setCheck({ state: 'checking' });
    checkConnection(accountId, { fetch, signal: controller.signal }).then(
      (status) => {
        if (!controller.signal.aborted) setCheck({ state: 'done', status });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setCheck({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [accountId, checkConnection, fetch, attempt]);

  const back = useMemo(
    () => returnPath ?? currentPathWithout(errorParam.name),
    [returnPath, errorParam.name],
  );
  const href = `${connectPath}${connectPath.includes('?') ? '&' : '?'}${new URLSearchParams({ accountId, returnPath: back })}`;
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const connected = check.state === 'done' && check.status.connected;
  const since = check.state === 'done' ? formatDate(check.status.connectedAt, locale) : undefined;

  return (
    <div className="plt-oauth" aria-busy={check.state === 'checking'}>
      {callbackError === null ? null : (
        <Alert
          tone="error"
          code={callbackError.code}
          title={labels.callbackFailed(providerName)}
          message={callbackError.message}
        />
      )}
      {check.state === 'failed' ? (
        <Alert
          tone="warning"
          title={labels.checkFailedTitle}
          message={labels.checkFailedHint(providerName)}
          action={
            <button type="button" className="plt-button" onClick={retry}>
              {labels.checkAgain}
            </button>
          }
        >
          <details className="plt-alert__details">
            <summary>{labels.details}</summary>
            <p>{labels.checkFailed(check.message)}</p>
          </details>
        </Alert>
      ) : null}
      <div role="status" className="plt-oauth__status" data-connected={connected ? '' : undefined}>
        {check.state === 'checking' ? (
          <Skeleton label={labels.checking} announced />
        ) : check.state === 'failed' ? null : check.status.connected ? (
          <>
            <p>
              <Icon icon={faCircleCheck} className="plt-oauth__ok" /> {labels.connected(providerName)}
            </p>
            {since === undefined ? null : <p className="plt-widget__muted">{labels.connectedSince(since)}</p>}
          </>
        ) : (
          <p>{labels.notConnected(providerName)}</p>
        )}
      </div>
      {check.state === 'checking' ? (
        // Holds the action row's place: no Connect button that turns into Reconnect once the check ends.
        <div className="plt-oauth__actions" aria-hidden="true">
          <span className="plt-skeleton plt-skeleton--button" />
        </div>
      ) : check.state === 'failed' ? null : (
        <div className="plt-oauth__actions">
          <a className={connected ? 'plt-button' : 'plt-button plt-button--primary'} href={href}>
            <Icon icon={faPlug} />
            {connected ? labels.reconnect : labels.connect(providerName)}
          </a>
        </div>
      )}
    </div>
  );
}

function currentPathWithout(param: string): string {
  if (typeof window === 'undefined') return '/';
  const url = new URL(window.location.href);
  url.searchParams.delete(param);
  return `${url.pathname}${url.search}`;
}

function formatDate(iso: string | undefined, locale: string): string | undefined {
  if (iso === undefined) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? undefined
    : date.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
}
