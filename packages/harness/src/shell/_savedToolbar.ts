import { effectiveToolbarState, type HarnessToolbarState, initialToolbarState } from '../hooks/index.js';
import { HARNESS_MODES, HARNESS_VARIANTS, type HarnessRegistryEntry } from '../types.js';

const key = (slug: string) => `platform-harness:toolbar:${slug}`;

/**
 * The toolbar an entry page opens with: what this tab last chose for the entry (kept in
 * `sessionStorage`, so a reload or a full HMR reload keeps it), else `initialToolbarState(entry)`.
 * A stored value that no longer fits (unknown variant, live without a `live` block) is ignored.
 * @example readSavedToolbar(entry, sessionStorage) // { variant: 'empty', mode: 'fixtures', record: false }
 */
export function readSavedToolbar(
  entry: Pick<HarnessRegistryEntry, 'slug' | 'live'>,
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.sessionStorage,
): HarnessToolbarState {
  const fallback = initialToolbarState(entry);
  let saved: unknown;
  try {
    saved = JSON.parse(storage?.getItem(key(entry.slug)) ?? 'null');
  } catch {
    return fallback;
  }
  if (typeof saved !== 'object' || saved === null) return fallback;
  const { variant, mode, record } = saved as Record<string, unknown>;
  if (!(HARNESS_VARIANTS as readonly unknown[]).includes(variant)) return fallback;
  if (!(HARNESS_MODES as readonly unknown[]).includes(mode)) return fallback;
  return effectiveToolbarState(entry, {
    variant: variant as HarnessToolbarState['variant'],
    mode: mode as HarnessToolbarState['mode'],
    record: record === true,
  });
}

/** Remembers the toolbar for this tab (see `readSavedToolbar`); storage failures are ignored. */
export function saveToolbar(
  slug: string,
  state: HarnessToolbarState,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.sessionStorage,
): void {
  try {
    storage?.setItem(key(slug), JSON.stringify(state));
  } catch {
    // Private mode or a full storage: the toolbar simply starts fresh next time.
  }
}
