// @vitest-environment happy-dom
import { HARNESS_ERROR_CODES, MissingFixtureError } from '@platform/harness';
import { createSeededQueryClient } from '@platform/harness/hooks';
import { QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

const seeds = {
  default: [
    { queryKey: ['notes', { page: 1 }], data: [{ id: 'n1' }] },
    { queryKey: ['me'], data: null, error: 'Session expired' },
    { queryKey: ['quota'], data: 3, error: undefined },
  ],
  error: [{ queryKey: ['notes', { page: 1 }], error: new Error('Acme is down') }],
} as const;

function render<T>(hook: () => T, client = createSeededQueryClient({ seeds, variant: 'default' })) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(hook, { wrapper });
}

describe('createSeededQueryClient', () => {
  it('never retries queries or mutations', () => {
    const options = createSeededQueryClient({ variant: 'default' }).getDefaultOptions();
    expect(options.queries?.retry).toBe(false);
    expect(options.mutations?.retry).toBe(false);
  });

  it('preloads the variant’s data seeds; a query without a queryFn shows them and does not refetch', async () => {
    const client = createSeededQueryClient({ seeds, variant: 'default' });
    // Keys hash like react-query's: object keys in any order.
    expect(client.getQueryData(['notes', { page: 1 }])).toEqual([{ id: 'n1' }]);
    const { result } = render(() => useQuery({ queryKey: ['notes', { page: 1 }] }), client);
    expect(result.current.status).toBe('success');
    expect(result.current.data).toEqual([{ id: 'n1' }]);
    expect(result.current.isFetching).toBe(false);
    expect(client.getQueryData(['quota'])).toBe(3);
  });

  it('puts an error seed in the error state; error wins over data', async () => {
    const client = createSeededQueryClient({ seeds, variant: 'default' });
    expect(client.getQueryState(['me'])).toMatchObject({ status: 'error', data: undefined });
    const ownQueryFn = vi.fn(async () => ({ name: 'fetched' }));
    const { result } = render(() => useQuery({ queryKey: ['me'], queryFn: ownQueryFn }), client);
    expect(result.current.isError).toBe(true);
    expect(result.current.error).toBeInstanceOf(Error);
    expect(result.current.error?.message).toBe('Session expired');
    // The seed holds on mount, even for a query with its own queryFn.
    expect(ownQueryFn).not.toHaveBeenCalled();
    // A refetch through the default queryFn gives the seed's error again.
    const refetched = await createSeededQueryClient({ seeds, variant: 'error' })
      .fetchQuery({ queryKey: ['notes', { page: 1 }] })
      .catch((error: unknown) => error);
    expect(refetched).toEqual(new Error('Acme is down'));
  });

  it('fails a query with neither seed nor queryFn with MissingFixtureError naming the key and the fix', async () => {
    const { result } = render(() => useQuery({ queryKey: ['notes', { page: 2 }] }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    const error = result.current.error as MissingFixtureError;
    expect(error).toBeInstanceOf(MissingFixtureError);
    expect(error.code).toBe(HARNESS_ERROR_CODES.missingFixture);
    expect(error.queryKey).toEqual(['notes', { page: 2 }]);
    expect(error.variant).toBe('default');
    expect(error.message).toBe(
      'No seed for query ["notes",{"page":2}] in variant "default" and the query has no queryFn of its own. ' +
        'Add { queryKey: ["notes",{"page":2}], data: ... } to seeds.default of the widget in harness.config.ts, or give the query its own queryFn.',
    );
  });

  it('runs a query’s own queryFn when it has no seed', async () => {
    const { result } = render(() => useQuery({ queryKey: ['other'], queryFn: async () => 'own' }));
    await waitFor(() => expect(result.current.data).toBe('own'));
  });

  it('has no seeds under an omitted variant: no fallback to default', async () => {
    const client = createSeededQueryClient({ seeds, variant: 'empty' });
    expect(client.getQueryData(['notes', { page: 1 }])).toBeUndefined();
    await expect(client.fetchQuery({ queryKey: ['notes', { page: 1 }] })).rejects.toBeInstanceOf(
      MissingFixtureError,
    );
  });

  it('takes one list of seeds for every variant (live.seeds)', async () => {
    const client = createSeededQueryClient({
      seeds: [{ queryKey: ['me'], data: { id: 'u1' } }],
      variant: 'error',
    });
    expect(client.getQueryData(['me'])).toEqual({ id: 'u1' });
    const missing = await client.fetchQuery({ queryKey: ['x'] }).catch((error: unknown) => error);
    expect((missing as MissingFixtureError).variant).toBeUndefined();
  });

  it('does not retry a failing mutation', async () => {
    const mutationFn = vi.fn(async () => {
      throw new Error('no');
    });
    const { result } = render(() => useMutation({ mutationFn }));
    await expect(result.current.mutateAsync()).rejects.toThrow('no');
    expect(mutationFn).toHaveBeenCalledTimes(1);
  });
});
