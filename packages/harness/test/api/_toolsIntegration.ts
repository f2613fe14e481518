import { defineIntegration, PublicActionError } from '@platform/sdk/integration';
import { z } from 'zod';

const Note = z.object({ id: z.string(), title: z.string() });

/** Tools of every effect, sensitivity and failure the harness and the host answer differently. */
export const toolsDefinition = defineIntegration({
  slug: 'tool-notes',
  storage: { account: { 'cache/notes': z.array(Note) }, user: { 'cache/starred': z.array(z.string()) } },
  tools: [
    {
      name: 'search_notes',
      description: 'Finds the notes whose title contains the text',
      input: z.object({ text: z.string(), limit: z.number().int().min(1).optional() }),
      handler: async (ctx, { text, limit }) => {
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        ctx.logger.info(`searching ${notes.length} notes`);
        return { notes: notes.filter((note) => note.title.includes(text)).slice(0, limit ?? 50) };
      },
    },
    {
      name: 'add_note',
      description: 'Adds a note to the account',
      input: z.object({ title: z.string().min(1) }),
      handler: async (ctx, { title }) => {
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        const note = { id: `n${notes.length + 1}`, title };
        await ctx.storage.account.set('cache/notes', [...notes, note]);
        ctx.logger.info(`added ${note.id}`);
        return note;
      },
    },
    {
      name: 'delete_notes',
      description: 'Deletes every note of the account',
      handler: async (ctx) => {
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        await ctx.storage.account.delete('cache/notes');
        return { deleted: notes.length };
      },
    },
    {
      name: 'refuse',
      description: 'Always refuses, with a message for the caller',
      handler: () => Promise.reject(new PublicActionError('The notes service is in maintenance.')),
    },
    {
      name: 'crash',
      description: 'A bug whose message must not reach a model',
      handler: () => Promise.reject(new Error('connection string postgres://admin:hunter2@db/internal')),
    },
    { name: 'later', description: 'Declared without a handler' },
  ],
  proposes: {
    tools: {
      search_notes: { effect: 'read', sensitivity: 'low' },
      add_note: { effect: 'write', sensitivity: 'low' },
      delete_notes: { effect: 'destructive', sensitivity: 'high' },
      refuse: { effect: 'read', sensitivity: 'low' },
      crash: { effect: 'read', sensitivity: 'low' },
    },
  },
});
