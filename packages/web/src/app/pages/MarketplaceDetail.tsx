import type { MarketplaceListing, Review } from '@platform/wire';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { type ReactNode, useMemo, useState } from 'react';
import { ApiError, api } from '../api.js';
import { ListingIcon } from '../dashboard/ListingIcon.js';
import { WidgetFrame } from '../dashboard/WidgetFrame.js';
import { Link, useLocation } from '../router.js';
import { useSession } from '../session.js';
import { ErrorNotice, Loading, When } from '../ui.js';
import { listingFrameProps, marketplacePath } from './Marketplace.js';

/**
 * The partner's Markdown as safe HTML: rendered by marked, then sanitised by DOMPurify (no
 * scripts, handlers, styles, forms or frames; links open as links). The page's CSP would stop
 * scripts and remote images anyway; this keeps the markup itself inert.
 */
function renderDocs(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'img'],
    FORBID_ATTR: ['style'],
  });
}

/**
 * `/marketplace/<slug>`: the project's docs, what it asks for (egress with wildcards flagged,
 * OAuth scopes, storage scope, widgets, every tool with its effect and sensitivity), "Activate"
 * for owners and admins, OAuth "Connect", "Deactivate" with a confirmation, and what a newer live
 * version widens beyond what the account consented to. Once activated, owners and admins see the
 * partner's activation form (`platform.json` `activationForm`) in its sandboxed frame: the one
 * frame that may save the activation's data.
 */
export function MarketplaceDetail(props: { slug: string }): ReactNode {
  const { account } = useSession();
  const queryClient = useQueryClient();
  const location = useLocation();
  const key = ['marketplace', account?.slug, props.slug];
  const listing = useQuery({
    queryKey: key,
    queryFn: () => api<MarketplaceListing>('GET', marketplacePath(account?.slug ?? '', props.slug)),
    enabled: account !== undefined,
  });
  const [confirming, setConfirming] = useState(false);
  const activationPath = `/api/integrations/${encodeURIComponent(props.slug)}/activation?accountId=${encodeURIComponent(account?.id ?? '')}`;
  const changed = () => {
    setConfirming(false);
    void queryClient.invalidateQueries({ queryKey: ['marketplace', account?.slug] });
    void queryClient.invalidateQueries({ queryKey: ['dashboard', account?.slug] });
  };
  const activate = useMutation({ mutationFn: () => api('POST', activationPath, {}), onSuccess: changed });
  const deactivate = useMutation({ mutationFn: () => api('DELETE', activationPath), onSuccess: changed });
  const docs = useMemo(
    () => (listing.data?.docs ? renderDocs(listing.data.docs) : undefined),
    [listing.data?.docs],
  );
  const oauthError = location.searchParams.get(`${props.slug}_oauth_error`);

  if (account === undefined) return <p>You are not a member of any account yet.</p>;
  if (listing.isPending) return <Loading label="Loading the integration" />;
  if (listing.isError) return <ErrorNotice error={listing.error} />;
  const item = listing.data;
  const failure = activate.error ?? deactivate.error;
  return (
    <article aria-labelledby="listing-title">
      <p>
        <Link to="/marketplace">← Marketplace</Link>
      </p>
      <h1 id="listing-title">
        <ListingIcon name={item.icon} /> {item.name}
      </h1>
      <p className="app-muted">
        by {item.publisher} · version {item.version}
        {item.activation.active && (
          <>
            {' '}
            · activated <When at={item.activation.activatedAt} />
          </>
        )}
      </p>
      {item.description !== null && <p>{item.description}</p>}
      {oauthError !== null && (
        <p role="alert" className="app-error">
          Connecting failed ({oauthError}). Try Connect again; if it keeps failing, tell the integration's
          publisher.
        </p>
      )}
      {failure !== null && (
        <p role="alert" className="app-error">
          {failure instanceof ApiError ? failure.text : 'The change was not saved; try again.'}
        </p>
      )}
      {item.widened !== null && item.widened.widens && <Widened review={item.widened} />}
      <div className="app-actions">
        {!item.activation.active &&
          (item.canActivate ? (
            <button
              type="button"
              className="app-primary"
              disabled={activate.isPending}
              onClick={() => activate.mutate()}
            >
              Activate
            </button>
          ) : (
            <p className="app-muted">An account owner or admin can activate {item.name}.</p>
          ))}
        {item.activation.active && item.oauth !== null && (
          <a
            className="app-button"
            href={`/api/integrations/${encodeURIComponent(props.slug)}/oauth/connect?accountId=${encodeURIComponent(account.id)}&returnPath=${encodeURIComponent(`/marketplace/${props.slug}`)}`}
          >
            Connect
          </a>
        )}
        {item.activation.active &&
          item.canActivate &&
          (confirming ? (
            <fieldset className="app-confirm">
              <legend>Confirm deactivation</legend>
              Deactivate {item.name} for {account.name}? Its widgets leave the dashboard.{' '}
              <button
                type="button"
                className="app-danger"
                disabled={deactivate.isPending}
                onClick={() => deactivate.mutate()}
              >
                Yes, deactivate
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </fieldset>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Deactivate
            </button>
          ))}
      </div>
      {item.activation.active && item.canActivate && item.hasActivationForm && (
        <section aria-labelledby="activation-form-title">
          <h2 id="activation-form-title">Set up {item.name}</h2>
          <WidgetFrame
            versionId={item.versionId}
            widgetId=""
            kind="activation-form"
            slug={item.slug}
            accountId={account.id}
            title={`${item.name} activation form`}
            props={listingFrameProps(item, account.id, 'activation-form')}
          />
        </section>
      )}
      <h2>What it asks for</h2>
      <Asks item={item} />
      {docs !== undefined && (
        <section aria-labelledby="docs-title">
          <h2 id="docs-title">Documentation</h2>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderDocs */}
          <div className="app-docs" dangerouslySetInnerHTML={{ __html: docs }} />
        </section>
      )}
    </article>
  );
}

function Asks(props: { item: MarketplaceListing }): ReactNode {
  const { item } = props;
  return (
    <dl className="app-asks">
      <dt>Network access</dt>
      <dd>
        <ListOrNone items={item.egress} keyOf={(entry) => entry.origin}>
          {(entry) => (
            <>
              <code>{entry.origin}</code>
              {entry.wildcard && <strong> (wildcard: every subdomain)</strong>}
            </>
          )}
        </ListOrNone>
      </dd>
      <dt>OAuth scopes</dt>
      <dd>{item.oauth === null ? 'No OAuth connection' : item.oauth.scopes.join(', ') || 'None named'}</dd>
      <dt>Storage</dt>
      <dd>
        {item.storageScope === null
          ? 'Not stated'
          : item.storageScope === 'user'
            ? 'Per user'
            : 'Shared by the team'}
      </dd>
      <dt>Widgets</dt>
      <dd>{item.widgets.length === 0 ? 'None' : item.widgets.map((widget) => widget.name).join(', ')}</dd>
      <dt>Tools for models</dt>
      <dd>
        <ListOrNone items={item.tools} keyOf={(tool) => tool.name}>
          {(tool) => (
            <>
              <code>{tool.name}</code>: {tool.description} <span className="app-badge">{tool.effect}</span>{' '}
              <span className="app-badge">{tool.sensitivity} sensitivity</span>
            </>
          )}
        </ListOrNone>
      </dd>
    </dl>
  );
}

/** A list of `items` drawn by `children`, or "None" when there are none. */
function ListOrNone<T>(props: {
  items: readonly T[];
  keyOf: (item: T) => string;
  children: (item: T) => ReactNode;
}): ReactNode {
  if (props.items.length === 0) return 'None';
  return (
    <ul>
      {props.items.map((item) => (
        <li key={props.keyOf(item)}>{props.children(item)}</li>
      ))}
    </ul>
  );
}

function Widened(props: { review: Review }): ReactNode {
  const { review } = props;
  return (
    <section role="status" className="app-notice" aria-labelledby="widened-title">
      <h2 id="widened-title">The live version asks for more than you agreed to</h2>
      <ul>
        {review.egress.added.map((origin) => (
          <li key={`egress-${origin}`}>
            New network access: <code>{origin}</code>
          </li>
        ))}
        {review.oauthScopes.added.map((scope) => (
          <li key={`scope-${scope}`}>
            New OAuth scope: <code>{scope}</code>
          </li>
        ))}
        {review.tools.map((tool) => (
          <li key={`tool-${tool.name}-${tool.change}`}>
            Tool <code>{tool.name}</code>:{' '}
            {tool.change === 'added' ? 'new' : `${tool.change} ${tool.from ?? '?'} → ${tool.to ?? '?'}`}
          </li>
        ))}
        {review.storage.map((entry) => (
          <li key={`storage-${entry.scope}-${entry.key}`}>
            Storage {entry.scope} key <code>{entry.key}</code> {entry.change}
          </li>
        ))}
      </ul>
    </section>
  );
}
