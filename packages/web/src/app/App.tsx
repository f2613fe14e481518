import { type ReactNode, useEffect } from 'react';
import { Dashboard } from './pages/Dashboard.js';
import { Marketplace } from './pages/Marketplace.js';
import { MarketplaceDetail } from './pages/MarketplaceDetail.js';
import { NotFound } from './pages/NotFound.js';
import { OAuthConsent } from './pages/OAuthConsent.js';
import { Settings } from './pages/Settings.js';
import { SignIn } from './pages/SignIn.js';
import { navigate, safeNext, useLocation } from './router.js';
import { Shell } from './Shell.js';
import { SessionProvider, useMe } from './session.js';
import { ErrorNotice, Loading } from './ui.js';

/** The page for a path of a signed-in user. */
function page(pathname: string): ReactNode {
  if (pathname === '/') return <Dashboard />;
  if (pathname === '/marketplace') return <Marketplace />;
  const listing = /^\/marketplace\/([a-z0-9-]+)$/.exec(pathname);
  if (listing?.[1] !== undefined) return <MarketplaceDetail slug={listing[1]} />;
  if (pathname === '/settings') return <Settings />;
  if (pathname === '/oauth/consent') return <OAuthConsent />;
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
      <Shell>{page(location.pathname)}</Shell>
    </SessionProvider>
  );
}

function pageTitle(pathname: string): string {
  if (pathname === '/') return 'Dashboard';
  if (pathname.startsWith('/marketplace')) return 'Marketplace';
  if (pathname === '/settings') return 'Settings';
  if (pathname === '/oauth/consent') return 'Allow an assistant';
  return 'Not found';
}
