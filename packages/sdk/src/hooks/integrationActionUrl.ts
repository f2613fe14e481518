import { integrationRoutePath } from './_routePath.js';

/** Which account an action, storage or status call is made for. */
export interface AccountOptions {
  readonly accountId: string;
}

/**
 * The same-origin URL of the actions route for one action and account.
 * @example integrationActionUrl('acme-notes', 'create-note', { accountId: 'a1' })
 * // '/api/integrations/acme-notes/actions/create-note?accountId=a1'
 */
export function integrationActionUrl(slug: string, actionName: string, options: AccountOptions): string {
  const query = new URLSearchParams({ accountId: options.accountId });
  return `${integrationRoutePath(slug, `actions/${encodeURIComponent(actionName)}`)}?${query}`;
}
