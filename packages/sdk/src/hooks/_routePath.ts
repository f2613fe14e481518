/** `/api/integrations/<slug>/<rest>`, the slug encoded as one path segment. */
export function integrationRoutePath(slug: string, rest: string): string {
  return `/api/integrations/${encodeURIComponent(slug)}/${rest}`;
}
