import type { MarketplaceResponse } from '@platform/wire';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '../api.js';
import { ListingIcon } from '../dashboard/ListingIcon.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { ErrorNotice, Loading } from '../ui.js';

/** The account's marketplace query, shared by the list and the detail page. */
export function marketplacePath(accountSlug: string, slug?: string): string {
  const base = `/api/platform/accounts/${encodeURIComponent(accountSlug)}/marketplace`;
  return slug === undefined ? base : `${base}/${encodeURIComponent(slug)}`;
}

/**
 * `/marketplace`: a tile per integration whose live version reaches the account (through the
 * sources serving it): name, description, icon, publisher, and whether it is activated.
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
                <span className="app-badge">{integration.activated ? 'Activated' : 'Not activated'}</span>
              </li>
            ))}
          </ul>
        ))}
    </>
  );
}
