import type { ReactNode } from 'react';
import type { FetchFunction } from '../hooks/_requestRoute.js';
import { IntegrationFetchProvider } from '../hooks/IntegrationFetchProvider.js';
import { NoRecordedResponseError } from '../integration/errors.js';
import { redactUrl } from '../runtime/redact.js';
import type { MockFetchHandler } from './createMockContext.js';
import { findFixture, parseFixtureRequest } from './fixtureRequest.js';

/** `createMockFetchProvider()`'s options. */
export interface MockFetchProviderOptions {
  /**
   * First match wins; `match` is `<METHOD> <target>` or a bare target (any method), with the fixture
   * matching rules. A path-only target (`POST /api/integrations/acme-notes/actions/create-note`)
   * matches same-origin requests. An unmatched request is refused with `NoRecordedResponseError`.
   */
  readonly handlers?: readonly MockFetchHandler[];
  /** What relative URLs resolve against. Default: `location.origin` under a DOM, else `http://localhost`. */
  readonly origin?: string;
}

/** One request the mock fetch received, matched or not. */
export interface MockFetchCall {
  readonly method: string;
  /** Absolute. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, or `null` when there is none. */
  readonly body: string | null;
}

/** A provider for widget tests, with the fetch it supplies and what that fetch received. */
export interface MockFetchProvider {
  /** Mounts an `IntegrationFetchProvider` with the mock fetch. */
  readonly Provider: (props: { readonly children?: ReactNode }) => ReactNode;
  readonly fetch: FetchFunction;
  readonly calls: readonly MockFetchCall[];
}

/**
 * An `IntegrationFetchProvider` for tests: the hooks and `useIntegrationFetch()` below it are
 * answered by `handlers`, never the network, and every request is recorded in `calls`.
 * @example
 * const mock = createMockFetchProvider({
 *   handlers: [{ match: 'POST /api/integrations/acme-notes/actions/create-note', respond: () => Response.json({ ok: true, data: { id: 'n1' } }) }],
 * });
 * render(<QueryClientProvider client={client}><mock.Provider><NotesWidget /></mock.Provider></QueryClientProvider>);
 */
export function createMockFetchProvider(options: MockFetchProviderOptions = {}): MockFetchProvider {
  const origin = new URL(options.origin ?? defaultOrigin()).origin;
  const handlers = (options.handlers ?? []).map((handler) => ({
    handler,
    request: parseFixtureRequest(handler.match, { egress: [origin], allowBareTarget: true }),
  }));
  const calls: MockFetchCall[] = [];

  const fetch: FetchFunction = async (input, init) => {
    const request =
      input instanceof Request ? new Request(input, init) : new Request(new URL(input, origin), init);
    calls.push({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: request.body === null ? null : await request.clone().text(),
    });
    const found = findFixture(handlers, (entry) => entry.request, {
      method: request.method,
      url: request.url,
    });
    if (found === null) {
      const shown = redactUrl(request.url);
      const path = new URL(request.url).pathname;
      throw new NoRecordedResponseError(
        request.method,
        shown,
        `Add a handler that matches it to createMockFetchProvider(), for example { match: '${request.method} ${path}', respond: () => Response.json({ ok: true, data: null }) }.`,
      );
    }
    return found.entry.handler.respond(request);
  };

  function Provider({ children }: { readonly children?: ReactNode }): ReactNode {
    return <IntegrationFetchProvider fetch={fetch}>{children}</IntegrationFetchProvider>;
  }
  return { Provider, fetch, calls };
}

function defaultOrigin(): string {
  const location = (globalThis as { location?: { origin?: unknown } }).location;
  const origin = location?.origin;
  return typeof origin === 'string' && /^https?:\/\//.test(origin) ? origin : 'http://localhost';
}
