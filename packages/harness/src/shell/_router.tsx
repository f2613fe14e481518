import {
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useSyncExternalStore,
} from 'react';

// A History API router small enough to read in one go: the path is the state, links are real
// `<a href>` elements (so open-in-new-tab and copy-link work), plain clicks become pushState.
const NAVIGATE_EVENT = 'platform-harness:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

/** The current `location.pathname`, re-rendering on navigation and back/forward. */
export function usePathname(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => '/',
  );
}

/** Goes to a same-origin path without reloading the page. */
export function navigate(path: string): void {
  if (path === window.location.pathname + window.location.search) return;
  window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
  window.scrollTo?.(0, 0);
}

/** The shell's pages, from a path. */
export type ShellRoute =
  | { readonly page: 'index' }
  | { readonly page: 'widgets'; readonly slug: string; readonly widgetId?: string }
  | { readonly page: 'tile' | 'activation' | 'triggers' | 'tools'; readonly slug: string }
  | { readonly page: 'not-found' };

export function matchRoute(pathname: string): ShellRoute {
  const segments = pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map(decode);
  const [slug, surface, id, ...rest] = segments;
  if (slug === undefined) return { page: 'index' };
  if (rest.length > 0) return { page: 'not-found' };
  if (surface === undefined) return { page: 'widgets', slug };
  if (surface === 'widgets')
    return id === undefined ? { page: 'widgets', slug } : { page: 'widgets', slug, widgetId: id };
  if (id !== undefined) return { page: 'not-found' };
  if (surface === 'tile' || surface === 'activation' || surface === 'triggers' || surface === 'tools')
    return { page: surface, slug };
  return { page: 'not-found' };
}

/** The path of an entry's surface. */
export function surfacePath(slug: string, surface: string, id?: string): string {
  const base = `/${encodeURIComponent(slug)}/${surface}`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  readonly href: string;
  readonly children?: ReactNode;
}

/** An `<a href>` that navigates in place on a plain left click, marked `aria-current` when it is the page. */
export function Link({ href, onClick, children, ...rest }: LinkProps): ReactNode {
  const pathname = usePathname();
  const handleClick = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      onClick?.(event);
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(href);
    },
    [href, onClick],
  );
  return (
    <a href={href} onClick={handleClick} aria-current={pathname === href ? 'page' : undefined} {...rest}>
      {children}
    </a>
  );
}
