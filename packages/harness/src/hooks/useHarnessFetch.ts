import type { FetchFunction } from '@platform/sdk/hooks';
import { useMemo } from 'react';
import type { HarnessRegistryEntry } from '../types.js';
import { createHarnessFetch, type HarnessFetchOptions } from './createHarnessFetch.js';
import { useHarnessToolbar } from './HarnessToolbarProvider.js';

/**
 * `createHarnessFetch()` for the entry under the toolbar of the nearest `HarnessToolbarProvider`,
 * made again when the toolbar changes. Made during render, so a broken fixture of the active
 * variant throws there, where the surface shows it.
 * @example
 * const fetch = useHarnessFetch(entry);
 * return <IntegrationFetchProvider fetch={fetch}><widget.component /></IntegrationFetchProvider>;
 */
export function useHarnessFetch(
  entry: HarnessRegistryEntry,
  options: Omit<HarnessFetchOptions, 'entry' | 'toolbar'> = {},
): FetchFunction {
  const { variant, mode, record } = useHarnessToolbar();
  const { pageOrigin, fetch, confirm, storage, log, onRequest } = options;
  return useMemo(
    () =>
      createHarnessFetch({
        entry,
        toolbar: { variant, mode, record },
        ...(pageOrigin === undefined ? {} : { pageOrigin }),
        ...(fetch === undefined ? {} : { fetch }),
        ...(confirm === undefined ? {} : { confirm }),
        ...(storage === undefined ? {} : { storage }),
        ...(log === undefined ? {} : { log }),
        ...(onRequest === undefined ? {} : { onRequest }),
      }),
    [entry, variant, mode, record, pageOrigin, fetch, confirm, storage, log, onRequest],
  );
}
