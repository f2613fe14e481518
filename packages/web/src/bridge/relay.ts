// The page side's one rule of what a widget frame may ask the host for. Partner code is hostile:
// the frame names a path, the page decides. Only the frame's own integration's routes that
// `@platform/sdk/hooks` call go through, for the account the page acts for (never the frame's).
import { BRIDGE_CHANNEL, type FetchMessage, type FetchResultMessage, type FrameKind } from './protocol.js';

/**
 * The routes a frame may reach, each with its one method and the query parameters it may send
 * (`accountId` is always the page's): `useIntegrationAction` (POST actions/<name>),
 * `fetchIntegrationStorage` (GET storage), `createPartnerConnectionCheck` (GET oauth/status), and
 * the activation read (GET activation), and for an activation form only, the activation data's
 * write (PUT activation/data). Slugs and action names are kebab-case, so a path with anything else
 * (`%`, `..`, `//`, `\`) never matches.
 */
const ROUTES: readonly {
  readonly pattern: RegExp;
  readonly method: string;
  readonly query: readonly string[];
  /** The frames that may use it; every kind when absent. */
  readonly kinds?: readonly FrameKind[];
}[] = [
  { pattern: /^\/api\/integrations\/([a-z0-9-]+)\/actions\/[a-z0-9-]+$/, method: 'POST', query: [] },
  { pattern: /^\/api\/integrations\/([a-z0-9-]+)\/storage$/, method: 'GET', query: ['keys', 'scope'] },
  { pattern: /^\/api\/integrations\/([a-z0-9-]+)\/oauth\/status$/, method: 'GET', query: [] },
  { pattern: /^\/api\/integrations\/([a-z0-9-]+)\/activation$/, method: 'GET', query: [] },
  {
    pattern: /^\/api\/integrations\/([a-z0-9-]+)\/activation\/data$/,
    method: 'PUT',
    query: [],
    kinds: ['activation-form'],
  },
];

/** What the page relays for a frame: a same-origin request, or the refusal to send back. */
export type RelayDecision =
  | {
      readonly allowed: true;
      /** Path and query on the host's origin, `accountId` set to the page's account. */
      readonly url: string;
      readonly method: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string | null;
    }
  | { readonly allowed: false; readonly result: FetchResultMessage };

/**
 * Decides whether a frame's `fetch` may go to the host: only `/api/integrations/<slug>/...` of the
 * frame's own `slug` (actions, storage, OAuth status, activation; the activation data's PUT only
 * from an activation form, `kind`), with that route's method, a JSON body only for actions and the
 * data's PUT, and `accountId` replaced by the page's account. Everything else (another
 * slug, another path, an absolute URL, a fragment, an encoded or `..` path, a wrong method) is
 * refused with a 403 `forbidden` envelope for the frame.
 * @example relayDecision(message, { slug: 'acme-notes', accountId: 'a1' })
 */
export function relayDecision(
  message: FetchMessage,
  frame: { readonly slug: string; readonly accountId: string; readonly kind?: FrameKind },
): RelayDecision {
  const kind = frame.kind ?? 'widget';
  const who = kind === 'widget' ? 'A widget' : kind === 'tile' ? 'The tile' : 'The activation form';
  const refuse = (why: string): RelayDecision => ({
    allowed: false,
    result: {
      channel: BRIDGE_CHANNEL,
      type: 'fetch-result',
      id: message.id,
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({
        ok: false,
        error: {
          code: 'forbidden',
          message: `${who} of "${frame.slug}" may not ${message.method} ${message.path.slice(0, 200)}: ${why}.`,
        },
      }),
    },
  });

  const queryAt = message.path.indexOf('?');
  const path = queryAt === -1 ? message.path : message.path.slice(0, queryAt);
  const search = queryAt === -1 ? '' : message.path.slice(queryAt + 1);
  if (message.path.includes('#')) return refuse('a path with a fragment is not a route');
  const route = ROUTES.find((candidate) => candidate.pattern.test(path));
  if (route === undefined) {
    return refuse(
      `widgets reach only their own integration's routes (/api/integrations/${frame.slug}/actions/<name>, /storage, /oauth/status, /activation)`,
    );
  }
  const slug = route.pattern.exec(path)?.[1];
  if (slug !== frame.slug) return refuse(`that route belongs to "${slug}", not to this widget's integration`);
  if (message.method !== route.method) return refuse(`this route takes ${route.method} only`);
  if (route.kinds !== undefined && !route.kinds.includes(kind)) {
    return refuse("only the integration's activation form writes its activation data");
  }

  const sent = new URLSearchParams(search);
  const query = new URLSearchParams();
  for (const name of route.query) {
    const value = sent.get(name);
    if (value !== null) query.set(name, value);
  }
  query.set('accountId', frame.accountId);

  const headers: Record<string, string> = { accept: 'application/json' };
  if (route.method === 'GET') {
    if (message.body !== null) return refuse('a GET request carries no body');
  } else {
    const contentType = message.headers['content-type'];
    if (contentType !== undefined && !/^application\/json(;\s*charset=utf-8)?$/i.test(contentType)) {
      return refuse('this route takes a JSON body (content-type application/json)');
    }
    headers['content-type'] = 'application/json';
  }
  return { allowed: true, url: `${path}?${query}`, method: route.method, headers, body: message.body };
}
