import type { IntegrationContext } from '@platform/sdk/integration';
import { z } from 'zod';

/** A note as this integration keeps it: written here (`local`) or pulled from Acme Notes (`acme`). */
export const Note = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  folder: z.string(),
  createdAt: z.string(),
  origin: z.enum(['local', 'acme']),
});
export type Note = z.infer<typeof Note>;

export const Settings = z.object({
  defaultFolder: z.string().min(1),
  syncEnabled: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

// Fields added later must stay optional: stored values written by older versions still have to parse.
export const SyncState = z.object({
  lastSyncAt: z.string(),
  remoteCount: z.int().nonnegative(),
});

export const Preferences = z.object({
  sort: z.enum(['newest', 'oldest']),
});

/** A note as the Acme Notes API sends it (snake_case, its own ids). */
export const VendorNote = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string().default(''),
  folder: z.string(),
  created_at: z.string(),
});
export type VendorNote = z.infer<typeof VendorNote>;

/** `GET /v1/notes` of the Acme Notes API. */
export const VendorNotesPage = z.object({ notes: z.array(VendorNote) });

/** The `note-changed` webhook body. The vendor's event names (`note.created`, ...) ride in `type`. */
export const NoteChanged = z.object({
  type: z.enum(['note.created', 'note.updated', 'note.deleted']),
  note: VendorNote,
});

/** What the definition stores; handlers outside `integration.ts` type their `ctx` from it. */
export const storage = {
  account: {
    settings: Settings,
    'cache/notes': z.array(Note),
    sync_state: SyncState,
  },
  user: {
    preferences: Preferences,
  },
};

export type AcmeNotesContext = IntegrationContext<typeof storage>;

export const DEFAULT_SETTINGS: Settings = { defaultFolder: 'inbox', syncEnabled: true };

/** The cache is a working set for widgets, not an archive: the oldest notes fall out past this. */
export const MAX_CACHED_NOTES = 500;

export const fromVendor = (note: VendorNote): Note => ({
  id: `acme-${note.id}`,
  title: note.title,
  body: note.body,
  folder: note.folder,
  createdAt: note.created_at,
  origin: 'acme',
});
