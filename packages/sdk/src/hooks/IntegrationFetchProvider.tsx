import { createContext, type ReactNode, useContext } from 'react';
import type { FetchFunction } from './_requestRoute.js';

export type { FetchFunction };

// Resolved at call time, so a test that replaces globalThis.fetch after render is still honoured.
const passThrough: FetchFunction = (input, init) => globalThis.fetch(input, init);

const FetchContext = createContext<FetchFunction>(passThrough);

export interface IntegrationFetchProviderProps {
  /** Answers every request of the hooks and of `useIntegrationFetch()` below this provider. */
  readonly fetch: FetchFunction;
  readonly children?: ReactNode;
}

/**
 * Supplies the `fetch` that widgets and the client hooks use below it: the harness answers from
 * fixtures through it, tests through `createMockFetchProvider()`.
 * @example <IntegrationFetchProvider fetch={harnessFetch}><NotesWidget /></IntegrationFetchProvider>
 */
export function IntegrationFetchProvider({ fetch, children }: IntegrationFetchProviderProps): ReactNode {
  return <FetchContext.Provider value={fetch}>{children}</FetchContext.Provider>;
}

/**
 * The `fetch` a widget should use: the nearest `IntegrationFetchProvider`'s, or outside any provider
 * a plain pass-through to `globalThis.fetch`.
 * @example
 * const fetch = useIntegrationFetch();
 * const response = await fetch('/api/integrations/acme-notes/storage?accountId=a1&keys=settings');
 */
export function useIntegrationFetch(): FetchFunction {
  return useContext(FetchContext);
}
