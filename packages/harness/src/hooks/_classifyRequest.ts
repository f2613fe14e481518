/**
 * Who answers a page request, by the rules of the spec's "Harness same-origin traffic":
 * - `page`: same origin, outside `/api` (the shell's own files): always the server.
 * - `api`: same-origin `/api/...` that is not the active integration's: fixtures, in every mode.
 * - `own`: the active integration's `/api/integrations/<slug>/...`: fixtures, or the server in live mode.
 * - `own-local-setup`, `own-action`: its `local-setup` and `actions/<name>` routes: the server in both modes.
 * - `vendor`: another origin: egress fixtures in fixtures mode, the network within egress in live mode.
 */
export type HarnessRequestRoute =
  | { readonly kind: 'page' }
  | { readonly kind: 'api' }
  | { readonly kind: 'own'; readonly rest: string }
  | { readonly kind: 'own-local-setup' }
  | { readonly kind: 'own-action'; readonly action: string }
  | { readonly kind: 'vendor' };

export function classifyRequest(url: URL, pageOrigin: string, slug: string): HarnessRequestRoute {
  if (url.origin !== pageOrigin) return { kind: 'vendor' };
  const path = url.pathname;
  if (path !== '/api' && !path.startsWith('/api/')) return { kind: 'page' };

  const own = `/api/integrations/${encodeURIComponent(slug)}`;
  if (path !== own && !path.startsWith(`${own}/`)) return { kind: 'api' };
  const rest = path.slice(own.length + 1);
  if (rest === 'local-setup' || rest.startsWith('local-setup/')) return { kind: 'own-local-setup' };
  const action = /^actions\/([^/]+)\/?$/.exec(rest)?.[1];
  if (action !== undefined) return { kind: 'own-action', action: decode(action) };
  return { kind: 'own', rest };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
