import { PublicActionError } from '@platform/sdk/integration';
import {
  type AcmeNotesContext,
  DEFAULT_SETTINGS,
  fromVendor,
  MAX_CACHED_NOTES,
  type Note,
  VendorNotesPage,
} from './schemas.js';

export const API_ORIGIN = 'https://api.acme-notes.example';
export const AUTH_ORIGIN = 'https://auth.acme-notes.example';
/** Account-tier secret written by `onTokens`. */
export const ACCESS_TOKEN_SECRET = 'ACME_NOTES_ACCESS_TOKEN';
export const REFRESH_TOKEN_SECRET = 'ACME_NOTES_REFRESH_TOKEN';

/** Newest first, local and remote notes merged by id, capped at the cache size. */
export function mergeNotes(...lists: readonly (readonly Note[])[]): Note[] {
  // Two notes written in the same millisecond share createdAt: the one written later comes first.
  const byId = new Map<string, { note: Note; order: number }>();
  let order = 0;
  for (const list of lists) for (const note of list) byId.set(note.id, { note, order: order++ });
  return [...byId.values()]
    .sort((a, b) => b.note.createdAt.localeCompare(a.note.createdAt) || b.order - a.order)
    .map((entry) => entry.note)
    .slice(0, MAX_CACHED_NOTES);
}

/**
 * Pulls the account's notes from Acme Notes with the token `onTokens` stored, and refreshes the
 * cache (notes written here stay). Shared by the `sync-notes` action and the nightly schedule.
 */
export async function syncNotes(ctx: AcmeNotesContext): Promise<{ synced: number; lastSyncAt: string }> {
  const token = await ctx.secrets.get(ACCESS_TOKEN_SECRET);
  if (token === undefined) {
    const message = 'Acme Notes is not connected for this account; connect it, then sync again.';
    throw new PublicActionError(message, { status: 409 });
  }
  const settings = (await ctx.storage.account.get('settings')) ?? DEFAULT_SETTINGS;
  const url = new URL('/v1/notes', API_ORIGIN);
  url.searchParams.set('folder', settings.defaultFolder);
  const response = await ctx.fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (response.status === 401) {
    throw new PublicActionError(
      'Acme Notes no longer accepts the stored connection; reconnect the integration.',
    );
  }
  if (!response.ok) throw new Error(`Acme Notes answered ${response.status} to GET /v1/notes`);
  const page = VendorNotesPage.safeParse(await response.json());
  if (!page.success) throw new Error(`Acme Notes sent an unexpected notes page: ${page.error.message}`);

  const remote = page.data.notes.map(fromVendor);
  const cached = (await ctx.storage.account.get('cache/notes')) ?? [];
  const lastSyncAt = new Date().toISOString();
  await ctx.storage.account.set(
    'cache/notes',
    mergeNotes(
      cached.filter((note) => note.origin === 'local'),
      remote,
    ),
  );
  await ctx.storage.account.set('sync_state', { lastSyncAt, remoteCount: remote.length });
  ctx.logger.info('synced notes from Acme Notes', { count: remote.length });
  return { synced: remote.length, lastSyncAt };
}
