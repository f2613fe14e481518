import { defineIntegration } from '@platform/sdk/integration';
import { describeDefinition } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('describeDefinition', () => {
  it('keeps the data of a definition as JSON and drops schemas, handlers and components', () => {
    const definition = defineIntegration({
      slug: 'acme-notes',
      egress: ['https://api.acme.com', 'https://auth.acme.com'],
      components: {
        widgets: [{ id: 'acme-notes-board', name: 'Board', component: () => null, isPinnable: true }],
      },
      layouts: { lg: { 'acme-notes-board': { x: 0, y: 0, w: 8, h: 6 } } },
      storage: { account: { settings: z.object({}) }, user: { preferences: z.object({}) } },
      actions: { 'list-notes': { description: 'List', input: z.object({}), handler: async () => [] } },
      webhooks: [
        {
          id: 'note-created',
          payloadSchema: z.object({}),
          signature: { header: 'X-Sig', secretName: 'HOOK', scheme: { format: 'digest' } },
          handler: async () => {},
        },
        {
          id: 'challenge',
          payloadSchema: z.object({ token: z.string() }).refine((value) => value.token !== ''),
          reply: () => ({ body: 'ok' }),
          handler: async () => {},
        },
      ],
      schedules: [{ id: 'nightly', cron: '0 3 * * *', handler: async () => {} }],
      oauth: {
        provider: {
          authorizationUrl: 'https://auth.acme.com/a',
          tokenUrl: 'https://auth.acme.com/t',
          scopes: ['read'],
        },
        credentials: { clientIdSecretName: 'ID', clientSecretSecretName: 'SECRET' },
        onTokens: async () => {},
      },
    });
    const manifest = describeDefinition(definition);
    expect(manifest).toEqual({
      slug: 'acme-notes',
      egress: ['https://api.acme.com', 'https://auth.acme.com'],
      actions: [{ name: 'list-notes', description: 'List' }],
      webhooks: [
        {
          id: 'note-created',
          signature: { header: 'X-Sig', secretName: 'HOOK', scheme: { format: 'digest' } },
          hasReply: false,
          // The payloadSchema as data (payloadShape.ts); none for a schema with a refinement.
          payloadShape: { t: 'object', keys: {}, rest: 'strip' },
        },
        { id: 'challenge', hasReply: true },
      ],
      schedules: [{ id: 'nightly', cron: '0 3 * * *' }],
      tools: [],
      widgets: [{ id: 'acme-notes-board', name: 'Board', isPinnable: true }],
      layouts: { lg: { 'acme-notes-board': { x: 0, y: 0, w: 8, h: 6 } } },
      storage: { account: ['settings'], user: ['preferences'] },
      // Each key's Standard JSON Schema (zod 4 states one), for the host's promotion review.
      storageShapes: {
        account: {
          settings: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: {},
          },
        },
        user: {
          preferences: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: {},
          },
        },
      },
      oauth: {
        provider: {
          authorizationUrl: 'https://auth.acme.com/a',
          tokenUrl: 'https://auth.acme.com/t',
          scopes: ['read'],
          pkce: false,
          tokenAuthMethod: 'client_secret_basic',
        },
        credentials: { clientIdSecretName: 'ID', clientSecretSecretName: 'SECRET' },
      },
      hasOnActivate: false,
    });
  });
});
