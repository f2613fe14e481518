import { type MouseEvent, type ReactNode, useSyncExternalStore } from 'react';

// The app's few pages need no routing library: the path is the state, links push history entries,
// and every page route is served the same shell by the host.

const listeners = new Set<() => void>();
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}
const location = () => window.location.pathname + window.location.search;

/** The current path and query, re-rendering on navigation. */
export function useLocation(): URL {
  const href = useSyncExternalStore(subscribe, location);
  return new URL(href, window.location.origin);
}

/** Goes to a path of this app without reloading the page. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.scrollTo(0, 0);
  for (const listener of listeners) listener();
}

/**
 * Where `?next=` may send the browser after sign-in: a path of this origin only, never another
 * site (`//evil.example`, `/\evil.example`, `https://...`), else `/`.
 * @example safeNext('/marketplace') // '/marketplace'; safeNext('//evil.example') // '/'
 */
export function safeNext(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  const url = new URL(next, 'http://app.invalid');
  return url.origin === 'http://app.invalid' ? url.pathname + url.search : '/';
}

/** A link to a page of this app: a real `<a href>` that navigates without a reload. */
export function Link(props: {
  to: string;
  children: ReactNode;
  className?: string;
  current?: boolean;
}): ReactNode {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a
      href={props.to}
      onClick={onClick}
      className={props.className}
      aria-current={props.current ? 'page' : undefined}
    >
      {props.children}
    </a>
  );
}
