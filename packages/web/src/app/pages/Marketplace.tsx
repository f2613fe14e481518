import type { MarketplaceIntegration, MarketplaceResponse } from '@platform/wire';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { WidgetFrameProps } from '../../bridge/protocol.js';
import { api } from '../api.js';
import { ListingIcon } from '../dashboard/ListingIcon.js';
import { WidgetFrame } from '../dashboard/WidgetFrame.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { ErrorNotice, Loading } from '../ui.js';

/** The account's marketplace query, shared by the list and the detail page. */
export function marketplacePath(accountSlug: string, slug?: string): string {
  const base = `/api/platform/accounts/${encodeURIComponent(accountSlug)}/marketplace`;
  return slug === undefined ? base : `${base}/${encodeURIComponent(slug)}`;
}

/** What a listing's tile or activation form receives (no placement: the kind names the frame). */
export function listingFrameProps(
  integration: MarketplaceIntegration,
  accountId: string,
  kind: 'tile' | 'activation-form',
): WidgetFrameProps {
  return {
    accountId,
    workspaceId: accountId,
    widgetConfigId: kind,
    collapsed: false,
    isPinned: false,
    health: null,
    integrationMetadata: {
      slug: integration.slug,
      name: integration.name,
      version: String(integration.version),
      publisher: integration.publisher,
    },
  };
}

/**
 * `/marketplace`: a tile per integration whose live version reaches the account (through the
 * sources serving it): name, description, icon, publisher, whether it is activated, and the
 * partner's own tile (`platform.json` `tile`) in its sandboxed frame when it has one.
 */
export function Marketplace(): ReactNode {
  const { account } = useSession();
  const list = useQuery({
    queryKey: ['marketplace', account?.slug],
    queryFn: () => api<MarketplaceResponse>('GET', marketplacePath(account?.slug ?? '')),
    enabled: account !== undefined,
  });
  return (
    <>
      <h1>Marketplace</h1>
      {account === undefined && (
        <p>You are not a member of any account yet; ask an account owner to add you.</p>
      )}
      {list.isPending && account !== undefined && <Loading label="Loading the marketplace" />}
      {list.isError && <ErrorNotice error={list.error} />}
      {list.data !== undefined &&
        (list.data.integrations.length === 0 ? (
          <p>No integration is offered to {account?.name} yet.</p>
        ) : (
          <ul className="app-tiles" aria-label="Integrations">
            {list.data.integrations.map((integration) => (
              <li key={integration.slug} className="app-tile">
                <h2>
                  <ListingIcon name={integration.icon} />{' '}
                  <Link to={`/marketplace/${integration.slug}`}>{integration.name}</Link>
                </h2>
                <p className="app-muted">
                  by {integration.publisher} · version {integration.version}
                </p>
                {integration.description !== null && <p>{integration.description}</p>}
                {integration.hasTile && account !== undefined && (
                  <WidgetFrame
                    versionId={integration.versionId}
                    widgetId=""
                    kind="tile"
                    slug={integration.slug}
                    accountId={account.id}
                    title={`${integration.name} tile`}
                    props={listingFrameProps(integration, account.id, 'tile')}
                  />
                )}
                <span className="app-badge">{integration.activated ? 'Activated' : 'Not activated'}</span>
              </li>
            ))}
          </ul>
        ))}
    </>
  );
}
