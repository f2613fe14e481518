import { hashKey, QueryClient, type QueryKey, type QueryState } from '@tanstack/react-query';
import { MissingFixtureError } from '../errors.js';
import type { FixtureSeed, HarnessVariant, HarnessWidget } from '../types.js';

export interface SeededQueryClientOptions {
  /**
   * A widget's `seeds` (per variant; an omitted variant has none, there is no fallback), or one
   * list for every variant, such as the entry's `live.seeds`.
   */
  readonly seeds?: HarnessWidget['seeds'] | readonly FixtureSeed[] | undefined;
  readonly variant: HarnessVariant;
}

/**
 * The harness's react-query client for one widget and variant: no retries (a refused request fails
 * at once), the variant's seeds preloaded (`data`, or `error` which wins and puts the query in its
 * error state), and a default `queryFn` that answers seeded keys from their seed and fails any other
 * query without a `queryFn` of its own with `MissingFixtureError`.
 * @example
 * const client = useMemo(() => createSeededQueryClient({ seeds: widget.seeds, variant }), [widget, variant]);
 * return <QueryClientProvider client={client}><widget.component /></QueryClientProvider>;
 */
export function createSeededQueryClient({ seeds, variant }: SeededQueryClientOptions): QueryClient {
  const shared = isSeedList(seeds);
  const list = shared ? seeds : (seeds?.[variant] ?? []);
  const seedByHash = new Map<string, FixtureSeed>();
  for (const seed of list) {
    const hash = hashKey(seed.queryKey);
    if (!seedByHash.has(hash)) seedByHash.set(hash, seed);
  }
  const seeded = (query: { queryHash: string }) => seedByHash.has(query.queryHash);

  const client = new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        // Answering seeded keys here too keeps a refetch (or a query rebuilt after garbage
        // collection) showing the seed rather than failing.
        queryFn: ({ queryKey }) => {
          const seed = seedByHash.get(hashKey(queryKey));
          if (seed === undefined) throw new MissingFixtureError(queryKey, shared ? undefined : variant);
          if (seed.error !== undefined) throw toError(seed.error);
          return seed.data;
        },
        // A seed is the state the author chose for this variant: it never goes stale, and an error
        // seed is not retried when a component mounts, even for a query with its own queryFn.
        staleTime: (query) => (seeded(query) ? Number.POSITIVE_INFINITY : 0),
        retryOnMount: (query) => !seeded(query),
      },
      mutations: { retry: false },
    },
  });

  const now = Date.now();
  for (const seed of seedByHash.values()) {
    if (seed.error !== undefined) {
      client
        .getQueryCache()
        .build(client, { queryKey: seed.queryKey as QueryKey }, errorState(toError(seed.error), now));
    } else {
      client.setQueryData(seed.queryKey, seed.data, { updatedAt: now });
    }
  }
  return client;
}

function isSeedList(seeds: SeededQueryClientOptions['seeds']): seeds is readonly FixtureSeed[] {
  return Array.isArray(seeds);
}

// Widgets read `error.message`; a seed written as a string (or anything else) still becomes an Error.
function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === 'string' ? value : 'Seeded error', { cause: value });
}

function errorState(error: Error, now: number): QueryState<unknown, Error> {
  return {
    data: undefined,
    dataUpdateCount: 0,
    dataUpdatedAt: 0,
    error,
    errorUpdateCount: 1,
    errorUpdatedAt: now,
    fetchFailureCount: 1,
    fetchFailureReason: error,
    fetchMeta: null,
    isInvalidated: false,
    status: 'error',
    fetchStatus: 'idle',
  };
}
