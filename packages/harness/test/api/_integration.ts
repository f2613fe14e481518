import { defineIntegration, PublicActionError } from '@platform/sdk/integration';
import { z } from 'zod';

export const API = 'https://api.acme.test';

const Note = z.object({ id: z.string(), title: z.string() });

/** A made-up integration exercising every harness route: storage in both scopes, fetch, secrets, a signed webhook, schedules. */
export function acmeDefinition(egress: readonly string[] = [API]) {
  return defineIntegration({
    slug: 'acme-notes',
    egress,
    storage: {
      account: { 'cache/notes': z.array(Note), sync_state: z.object({ actor: z.string(), at: z.string() }) },
      user: { preferences: z.object({ sort: z.enum(['newest', 'oldest']) }) },
    },
    oauth: {
      provider: {
        authorizationUrl: `${API}/oauth/authorize`,
        tokenUrl: `${API}/oauth/token`,
        scopes: ['notes:read'],
      },
      credentials: { clientIdSecretName: 'ACME_CLIENT_ID', clientSecretSecretName: 'ACME_CLIENT_SECRET' },
      onTokens: async (ctx, tokens) => ctx.secrets.set('ACME_ACCESS_TOKEN', tokens.accessToken),
    },
    actions: {
      'add-note': {
        description: 'Adds a note to the account cache',
        input: z.object({ title: z.string().min(1) }),
        output: Note,
        handler: async (ctx, input) => {
          const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
          const note = { id: `n${notes.length + 1}`, title: input.title };
          await ctx.storage.account.set('cache/notes', [...notes, note]);
          return note;
        },
      },
      'set-sort': {
        description: "Stores the caller's sort preference",
        input: z.object({ sort: z.enum(['newest', 'oldest']) }),
        handler: async (ctx, input) => {
          await ctx.storage.user.set('preferences', { sort: input.sort });
          return { actor: ctx.actor.kind };
        },
      },
      'fetch-json': {
        description: 'GETs a path of the vendor API with the stored token',
        input: z.object({ url: z.string() }),
        handler: async (ctx, input) => {
          const token = await ctx.secrets.get('ACME_ACCESS_TOKEN');
          const response = await ctx.fetch(input.url, {
            headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
          });
          const text = await response.text();
          return { status: response.status, body: text === '' ? null : JSON.parse(text) };
        },
      },
      'save-token': {
        description: 'Writes an account-tier secret',
        input: z.object({ name: z.string(), value: z.string() }),
        handler: async (ctx, input) => {
          await ctx.secrets.set(input.name, input.value);
          return null;
        },
      },
      'fail-public': {
        description: 'Throws a PublicActionError',
        input: z.object({}),
        handler: async () => {
          throw new PublicActionError('Acme is down, try later.');
        },
      },
      'connect-first': {
        description: 'Throws a PublicActionError with a 4xx status',
        input: z.object({}),
        handler: async () => {
          throw new PublicActionError('Connect Acme first.', { status: 409 });
        },
      },
    },
    webhooks: [
      {
        id: 'note-changed',
        description: 'Acme note.created',
        payloadSchema: z.object({ type: z.literal('note.created'), note: Note }),
        signature: {
          header: 'Acme-Signature',
          secretName: 'ACME_WEBHOOK_SECRET',
          scheme: {
            format: 'keyed',
            digestKey: 'v1',
            timestampKey: 't',
            signedPayload: '{timestamp}.{body}',
            toleranceSeconds: 300,
          },
        },
        handler: async (ctx, event) => {
          const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
          await ctx.storage.account.set('cache/notes', [...notes, event.note]);
          ctx.logger.info(`note ${event.note.id} arrived`);
        },
      },
      {
        id: 'unsigned-ping',
        payloadSchema: z.object({}),
        handler: async (ctx) => ctx.logger.info('ping'),
      },
    ],
    schedules: [
      {
        id: 'nightly-sync',
        cron: '0 3 * * *',
        handler: async (ctx) => {
          await ctx.storage.account.set('sync_state', { actor: ctx.actor.kind, at: 'nightly' });
        },
      },
      {
        id: 'touch-user',
        cron: '*/5 * * * *',
        handler: async (ctx) => {
          await ctx.storage.user.get('preferences');
        },
      },
    ],
  });
}
