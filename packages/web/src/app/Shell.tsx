import { type ReactNode, useState } from 'react';
import { Link, useLocation } from './router.js';
import { useSession } from './session.js';

const NAV = [
  { to: '/', label: 'Dashboard' },
  { to: '/marketplace', label: 'Marketplace' },
  { to: '/settings', label: 'Settings' },
] as const;

/**
 * Every signed-in page: the navigation ("Dashboard", "Marketplace", "Settings"), the account
 * switcher when the user belongs to several accounts, and "Sign out" (which ends the session for
 * the API too).
 */
export function Shell(props: { children: ReactNode }): ReactNode {
  const session = useSession();
  const location = useLocation();
  const [signingOut, setSigningOut] = useState(false);
  const current = (to: string) =>
    to === '/'
      ? location.pathname === '/'
      : location.pathname === to || location.pathname.startsWith(`${to}/`);
  return (
    <>
      <header className="app-header">
        <a className="app-skip" href="#main">
          Skip to content
        </a>
        <span className="app-brand">Platform</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <Link to={item.to} current={current(item.to)}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="app-header-end">
          {session.me.accounts.length > 1 && session.account !== undefined && (
            <label className="app-account">
              <span>Account</span>
              <select
                value={session.account.slug}
                onChange={(event) => session.chooseAccount(event.target.value)}
              >
                {session.me.accounts.map((account) => (
                  <option key={account.id} value={account.slug}>
                    {account.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {session.me.accounts.length === 1 && session.account !== undefined && (
            <span className="app-muted">{session.account.name}</span>
          )}
          <button
            type="button"
            disabled={signingOut}
            onClick={() => {
              setSigningOut(true);
              void session.signOut().finally(() => setSigningOut(false));
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="app-main">
        {props.children}
      </main>
    </>
  );
}
