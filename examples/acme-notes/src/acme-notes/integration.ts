import { defineIntegration } from '@platform/sdk/integration';
import { z } from 'zod';
import { DEFAULT_SETTINGS, fromVendor, Note, NoteChanged, storage } from './schemas.js';
import {
  ACCESS_TOKEN_SECRET,
  API_ORIGIN,
  AUTH_ORIGIN,
  mergeNotes,
  REFRESH_TOKEN_SECRET,
  syncNotes,
} from './syncNotes.js';
import { AcmeNotesBoard } from './widgets/AcmeNotesBoard.js';
import { AcmeNotesRecent } from './widgets/AcmeNotesRecent.js';

/**
 * Acme Notes (a made-up vendor): notes written here work offline in account storage; once the
 * account connects Acme Notes over OAuth, `sync-notes` and the nightly schedule pull its notes and
 * the `note-changed` webhook keeps the cache current.
 */
export default defineIntegration({
  slug: 'acme-notes',
  egress: [API_ORIGIN, AUTH_ORIGIN],
  storage,
  oauth: {
    provider: {
      authorizationUrl: `${AUTH_ORIGIN}/oauth/authorize`,
      tokenUrl: `${AUTH_ORIGIN}/oauth/token`,
      scopes: ['notes:read', 'notes:write'],
      pkce: true,
      tokenAuthMethod: 'client_secret_post',
    },
    // Admin-issued (source or global tier): `platform-host admin secret set --tier global ...`.
    credentials: {
      clientIdSecretName: 'ACME_NOTES_CLIENT_ID',
      clientSecretSecretName: 'ACME_NOTES_CLIENT_SECRET',
    },
    onTokens: async (ctx, tokens) => {
      await ctx.secrets.set(ACCESS_TOKEN_SECRET, tokens.accessToken);
      if (tokens.refreshToken !== undefined) await ctx.secrets.set(REFRESH_TOKEN_SECRET, tokens.refreshToken);
      ctx.logger.info('Acme Notes connected', {
        scope: tokens.scope ?? null,
        expiresAt: tokens.expiresAt ?? null,
      });
    },
  },
  actions: {
    'add-note': {
      description: 'Adds a note to this account (works without an Acme Notes connection)',
      input: z.object({
        title: z.string().trim().min(1).max(200),
        body: z.string().max(10_000).default(''),
        folder: z.string().min(1).max(100).optional(),
      }),
      output: Note,
      handler: async (ctx, input) => {
        const settings = (await ctx.storage.account.get('settings')) ?? DEFAULT_SETTINGS;
        const note: Note = {
          id: `local-${crypto.randomUUID()}`,
          title: input.title,
          body: input.body,
          folder: input.folder ?? settings.defaultFolder,
          createdAt: new Date().toISOString(),
          origin: 'local',
        };
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        await ctx.storage.account.set('cache/notes', mergeNotes(notes, [note]));
        return note;
      },
    },
    'list-notes': {
      description: "Lists the account's notes in the caller's preferred order",
      input: z.object({
        folder: z.string().optional(),
        limit: z.int().min(1).max(100).default(20),
      }),
      output: z.array(Note),
      handler: async (ctx, input) => {
        const preferences = await ctx.storage.user.get('preferences');
        const notes = ((await ctx.storage.account.get('cache/notes')) ?? []).filter(
          (note) => input.folder === undefined || note.folder === input.folder,
        );
        const ordered = preferences?.sort === 'oldest' ? [...notes].reverse() : notes;
        return ordered.slice(0, input.limit);
      },
    },
    'sync-notes': {
      description: 'Pulls the notes of the connected Acme Notes workspace',
      input: z.object({}),
      output: z.object({ synced: z.int(), lastSyncAt: z.string() }),
      handler: async (ctx) => syncNotes(ctx),
    },
  },
  webhooks: [
    {
      id: 'note-changed',
      description: 'Acme Notes events note.created, note.updated and note.deleted',
      payloadSchema: NoteChanged,
      // Stripe-style: `Acme-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
      signature: {
        header: 'Acme-Signature',
        secretName: 'ACME_NOTES_WEBHOOK_SECRET',
        scheme: {
          algorithm: 'sha256',
          format: 'keyed',
          digestKey: 'v1',
          timestampKey: 't',
          signedPayload: '{timestamp}.{body}',
          toleranceSeconds: 300,
        },
      },
      handler: async (ctx, event) => {
        const note = fromVendor(event.note);
        const notes = ((await ctx.storage.account.get('cache/notes')) ?? []).filter(
          (cached) => cached.id !== note.id,
        );
        await ctx.storage.account.set(
          'cache/notes',
          event.type === 'note.deleted' ? notes : mergeNotes(notes, [note]),
        );
      },
    },
  ],
  schedules: [
    {
      id: 'nightly-sync',
      cron: '0 3 * * *',
      description: 'Pulls Acme Notes every night at 03:00 UTC for connected accounts with sync enabled',
      handler: async (ctx) => {
        const settings = (await ctx.storage.account.get('settings')) ?? DEFAULT_SETTINGS;
        if (!settings.syncEnabled) return;
        if ((await ctx.secrets.get(ACCESS_TOKEN_SECRET)) === undefined) {
          ctx.logger.info('nightly sync skipped: Acme Notes is not connected');
          return;
        }
        await syncNotes(ctx);
      },
    },
  ],
  components: {
    widgets: [
      {
        id: 'acme-notes-board',
        name: 'Acme Notes board',
        component: AcmeNotesBoard,
        isCollapsible: true,
        isPinnable: true,
      },
      { id: 'acme-notes-recent', name: 'Recent notes', component: AcmeNotesRecent, isCollapsible: true },
    ],
  },
  layouts: {
    lg: { 'acme-notes-board': { x: 0, y: 0, w: 8, h: 6 }, 'acme-notes-recent': { x: 8, y: 0, w: 4, h: 6 } },
  },
  onActivate: async (ctx) => {
    // Activation data updates call this again: keep what the account already chose.
    if ((await ctx.storage.account.get('settings')) === undefined) {
      await ctx.storage.account.set('settings', DEFAULT_SETTINGS);
    }
  },
});
