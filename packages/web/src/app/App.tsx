import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { NotFound } from './pages/NotFound.js';
import { SignIn } from './pages/SignIn.js';
import { navigate, safeNext, useLocation } from './router.js';
import { Shell } from './Shell.js';
import { SessionProvider, useMe } from './session.js';
import { ErrorNotice, Loading } from './ui.js';

// The signed-in pages are chunks of their own, loaded when first shown: the shell (index.html's one
// script) carries React, react-query, the router, sign-in and the navigation, and the dashboard's
// grid and widget chrome, the listing's Markdown renderer and sanitiser and settings come after
// (bench/dashboard.bench.ts measures the shell against its 150 KB gzipped goal).
const loaders = {
  dashboard: () => import('./pages/Dashboard.js'),
  marketplace: () => import('./pages/Marketplace.js'),
  listing: () => import('./pages/MarketplaceDetail.js'),
  settings: () => import('./pages/Settings.js'),
};
const Dashboard = lazy(() => loaders.dashboard().then((module) => ({ default: module.Dashboard })));
const Marketplace = lazy(() => loaders.marketplace().then((module) => ({ default: module.Marketplace })));
const MarketplaceDetail = lazy(() =>
  loaders.listing().then((module) => ({ default: module.MarketplaceDetail })),
);
const Settings = lazy(() => loaders.settings().then((module) => ({ default: module.Settings })));

/** Starts loading the chunk of the page the browser opened on, while the app asks who is signed in. */
export function preloadPage(pathname: string): void {
  const load =
    pathname === '/'
      ? loaders.dashboard
      : pathname === '/marketplace'
        ? loaders.marketplace
        : pathname.startsWith('/marketplace/')
          ? loaders.listing
          : pathname === '/settings'
            ? loaders.settings
            : undefined;
  // A failed preload is retried by the page's own lazy import, which shows its error.
  load?.().catch(() => {});
}

/** The page for a path of a signed-in user. */
function page(pathname: string): ReactNode {
  if (pathname === '/') return <Dashboard />;
  if (pathname === '/marketplace') return <Marketplace />;
  const listing = /^\/marketplace\/([a-z0-9-]+)$/.exec(pathname);
  if (listing?.[1] !== undefined) return <MarketplaceDetail slug={listing[1]} />;
  if (pathname === '/settings') return <Settings />;
  return <NotFound />;
}

/**
 * Signed out, every page but `/sign-in` goes to `/sign-in?next=<where you were>`; signed in,
 * `/sign-in` goes on to `next`.
 */
export function App(): ReactNode {
  const location = useLocation();
  const me = useMe();
  const onSignIn = location.pathname === '/sign-in';
  const signedOut = me.data === null || me.data === 'code-due';

  useEffect(() => {
    if (signedOut && !onSignIn) {
      navigate(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
    }
    if (typeof me.data === 'object' && me.data !== null && onSignIn)
      navigate(safeNext(location.searchParams.get('next')), { replace: true });
  }, [signedOut, onSignIn, me.data, location]);

  useEffect(() => {
    const title = onSignIn ? 'Sign in' : pageTitle(location.pathname);
    document.title = `${title} · Platform`;
  }, [onSignIn, location.pathname]);

  if (me.isPending) return <Loading label="Loading" />;
  if (me.isError) return <ErrorNotice error={me.error} />;
  if (me.data === null || me.data === 'code-due')
    return onSignIn ? <SignIn codeDue={me.data === 'code-due'} /> : <Loading label="Loading" />;
  if (onSignIn) return <Loading label="Loading" />;
  return (
    <SessionProvider me={me.data}>
      <Shell>
        <Suspense fallback={<Loading label="Loading" />}>{page(location.pathname)}</Suspense>
      </Shell>
    </SessionProvider>
  );
}

function pageTitle(pathname: string): string {
  if (pathname === '/') return 'Dashboard';
  if (pathname.startsWith('/marketplace')) return 'Marketplace';
  if (pathname === '/settings') return 'Settings';
  return 'Not found';
}
