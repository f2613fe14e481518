import type { FetchFunction } from '@platform/sdk/hooks';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import type { HarnessRegistry } from '../types.js';
import { Link, matchRoute, usePathname } from './_router.js';
import type { ActivationState, ShellOptions } from './_shellContext.js';
import { EntryPage } from './EntryPage.js';
import { IndexPage } from './IndexPage.js';

export interface HarnessShellProps {
  /** `harnessIntegrations` from the project's `harness.config.ts`. */
  readonly registry: HarnessRegistry;
  /** Where requests for the harness server (and live vendor requests) go; default `globalThis.fetch`. */
  readonly fetch?: FetchFunction;
  /** The page's origin, what same-origin means; default `location.origin`. */
  readonly pageOrigin?: string;
}

interface StoredActivation {
  readonly activated: boolean;
  readonly data: unknown;
}

/**
 * The harness's single-page app: the index of integrations and, per integration, the Widgets,
 * Marketplace tile, Activation, Triggers and Tools surfaces under a toolbar, with a request log.
 * @example createRoot(root).render(<HarnessShell registry={harnessIntegrations} />);
 */
export function HarnessShell({ registry, fetch, pageOrigin }: HarnessShellProps): ReactNode {
  const pathname = usePathname();
  const route = matchRoute(pathname);
  const options = useMemo<ShellOptions>(
    () => ({
      ...(fetch === undefined ? {} : { fetch }),
      ...(pageOrigin === undefined ? {} : { pageOrigin }),
    }),
    [fetch, pageOrigin],
  );
  // Activation is the harness account's, in memory: kept across surfaces, gone on reload.
  const [activations, setActivations] = useState<ReadonlyMap<string, StoredActivation>>(new Map());
  const setActivation = useCallback((slug: string, value: StoredActivation) => {
    setActivations((previous) => new Map(previous).set(slug, value));
  }, []);

  const entry =
    route.page === 'index' || route.page === 'not-found'
      ? undefined
      : registry.find((candidate) => candidate.slug === route.slug);

  useEffect(() => {
    document.title = entry === undefined ? 'Platform harness' : `${entry.name} · Platform harness`;
  }, [entry]);

  const stored = entry === undefined ? undefined : activations.get(entry.slug);
  const slug = entry?.slug;
  const activation = useMemo<ActivationState>(
    () => ({
      activated: stored?.activated ?? false,
      data: stored?.data ?? null,
      activate: async (data?: unknown) => {
        if (slug !== undefined) setActivation(slug, { activated: true, data: data ?? null });
      },
      deactivate: async () => {
        if (slug !== undefined) setActivation(slug, { activated: false, data: null });
      },
    }),
    [stored, slug, setActivation],
  );

  let page: ReactNode;
  if (route.page === 'index') page = <IndexPage registry={registry} />;
  else if (route.page === 'not-found' || entry === undefined) page = <NotFound registry={registry} />;
  else
    page = (
      <EntryPage key={entry.slug} entry={entry} route={route} options={options} activation={activation} />
    );

  return (
    <div className="harness-shell">
      <header className="harness-header">
        <Link href="/" className="harness-brand">
          Platform harness
        </Link>
        <nav aria-label="Integrations">
          <ul>
            {registry.map((candidate) => (
              <li key={candidate.slug}>
                <Link href={`/${encodeURIComponent(candidate.slug)}/widgets`}>{candidate.name}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main className="harness-main">{page}</main>
    </div>
  );
}

function NotFound({ registry }: { readonly registry: HarnessRegistry }): ReactNode {
  const slugs = registry.map((entry) => entry.slug);
  return (
    <>
      <h1>Not found</h1>
      <p>
        Nothing here. The harness serves <code>/</code> and <code>/&lt;slug&gt;/widgets</code>,{' '}
        <code>/tile</code>, <code>/activation</code>, <code>/triggers</code>, <code>/tools</code> for the
        slugs {slugs.length === 0 ? 'of harness.config.ts (none yet)' : slugs.join(', ')}.
      </p>
      <p>
        <Link href="/">All integrations</Link>
      </p>
    </>
  );
}
