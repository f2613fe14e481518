import { IntegrationDefinitionError } from '@platform/integration-schema';
import { defineIntegration } from '@platform/sdk/integration';
import { type DefinitionManifest, describeDefinition, readManifest } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const definition = defineIntegration({
  slug: 'acme-notes',
  egress: ['https://api.acme.com', 'https://auth.acme.com'],
  components: { widgets: [{ id: 'acme-notes-board', name: 'Board', component: () => null }] },
  layouts: { lg: { 'acme-notes-board': { x: 0, y: 0, w: 8, h: 6 } } },
  storage: { account: { settings: z.object({ theme: z.string() }) }, user: { preferences: z.object({}) } },
  actions: { 'list-notes': { description: 'List', input: z.object({}), handler: async () => [] } },
  tools: [{ name: 'list_notes', description: 'Lists notes' }],
  proposes: { tools: { list_notes: { effect: 'read', sensitivity: 'low' } } },
  webhooks: [
    {
      id: 'note-created',
      payloadSchema: z.object({ id: z.string() }),
      signature: { header: 'X-Sig', secretName: 'HOOK', scheme: { format: 'digest' } },
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
const valid = describeDefinition(definition);
// A manifest as partner code could answer it: the valid one with some fields replaced.
const forged = (changes: Record<string, unknown>): unknown => ({ ...structuredClone(valid), ...changes });

function problemsOf(raw: unknown): { path: string; message: string }[] {
  try {
    readManifest(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(IntegrationDefinitionError);
    return [...(error as IntegrationDefinitionError).problems];
  }
  throw new Error('readManifest accepted the manifest');
}

describe('readManifest', () => {
  it('returns the manifest describeDefinition made, unchanged', () => {
    expect(readManifest(structuredClone(valid))).toEqual(valid);
    const minimal = describeDefinition(defineIntegration({ slug: 'bare' }));
    expect(readManifest(minimal)).toEqual(minimal);
  });

  it('accepts a manifest stored before hasReply, payloadShape, storageShapes and layouts existed', () => {
    const { storageShapes: _storageShapes, layouts: _layouts, ...older } = structuredClone(valid);
    const webhooks = older.webhooks.map(({ id, signature }) => ({ id, signature }));
    expect(readManifest({ ...older, webhooks })).toEqual({ ...older, webhooks });
  });

  it.each([
    ['an egress entry the definition would refuse', { egress: ['*'] }, 'egress.0'],
    [
      'a layout for a widget it does not declare',
      { layouts: { md: { 'someone-else': { x: 0, y: 0, w: 1, h: 1 } } } },
      'layouts.md.someone-else',
    ],
    [
      'a layout rectangle with a negative x',
      { layouts: { lg: { 'acme-notes-board': { x: -1, y: 0, w: 1, h: 1 } } } },
      'layouts.lg.acme-notes-board.x',
    ],
    [
      'a wildcard over a whole top-level domain',
      { egress: ['https://*.com', 'https://auth.acme.com'] },
      'egress.0',
    ],
    [
      'an OAuth token URL outside egress',
      {
        oauth: {
          ...valid.oauth,
          provider: { ...valid.oauth?.provider, tokenUrl: 'https://collector.example.net/t' },
        },
      },
      'oauth.provider.tokenUrl',
    ],
    [
      'a cron the scheduler cannot read',
      { schedules: [{ id: 'nightly', cron: '* * *' }] },
      'schedules[nightly]',
    ],
    [
      'a storage key outside the grammar',
      { storage: { account: ['../other'], user: [] } },
      'storage.account.../other',
    ],
    [
      'an action name that is not kebab-case',
      { actions: [{ name: 'Drop Tables', description: 'x' }] },
      'actions.Drop Tables',
    ],
    [
      'two actions of one name',
      {
        actions: [
          { name: 'a', description: 'x' },
          { name: 'a', description: 'y' },
        ],
      },
      'actions',
    ],
    [
      'two storage keys of one name',
      { storage: { account: ['settings', 'settings'], user: [] } },
      'storage.account',
    ],
    [
      'a proposal for a tool it does not declare',
      { proposes: { tools: { drop_all: { effect: 'read', sensitivity: 'low' } } } },
      'proposes.tools.drop_all',
    ],
    [
      'a signature scheme the rules refuse',
      {
        webhooks: [
          {
            id: 'note-created',
            signature: { header: 'X-Sig', secretName: 'HOOK', scheme: { format: 'keyed' } },
          },
        ],
      },
      'webhooks.0.signature.scheme',
    ],
    ['a field no definition has', { trustTier: 'first-party' }, '(root)'],
    ['a field of the wrong type', { hasOnActivate: 'yes' }, 'hasOnActivate'],
    [
      'an unknown field inside an entry',
      { actions: [{ name: 'a', description: 'x', scopes: ['admin'] }] },
      'actions.0',
    ],
    [
      'a JSON Schema for an undeclared storage key',
      { storageShapes: { account: { secrets: { type: 'object' } }, user: {} } },
      'storageShapes.account.secrets',
    ],
  ])('refuses %s, naming where', (_name, changes, path) => {
    expect(problemsOf(forged(changes)).map((problem) => problem.path)).toContain(path);
  });

  it('refuses what is not a manifest at all', () => {
    for (const raw of [null, 'acme', [], 42]) {
      expect(problemsOf(raw)[0]?.path).toBe('(root)');
    }
  });

  it('drops a payload shape that is not well formed (ingress then checks the body in the isolate)', () => {
    const manifest = readManifest(
      forged({
        webhooks: [{ id: 'note-created', hasReply: false, payloadShape: { t: 'object', keys: 'all' } }],
      }),
    ) as DefinitionManifest;
    expect(manifest.webhooks).toEqual([{ id: 'note-created', hasReply: false }]);
  });
});

describe('readManifest and a connection', () => {
  const withKey = defineIntegration({
    slug: 'acme-keys',
    egress: ['https://api.acme.com'],
    connection: {
      kind: 'apiKey',
      fields: [{ name: 'apiKey', label: 'API key', secret: true }],
      header: 'Bearer {apiKey}',
      verify: { method: 'GET', url: 'https://api.acme.com/me' },
      authorization: { origins: ['https://api.acme.com'] },
    },
  });
  const manifest = describeDefinition(withKey);

  it('keeps the connection as declared', () => {
    expect(readManifest(structuredClone(manifest)).connection).toEqual(withKey.connection);
  });

  it('refuses a forged connection whose verify URL or origin egress does not cover', () => {
    const connection = {
      ...manifest.connection,
      verify: { method: 'GET', url: 'https://collector.example.net/me' },
      authorization: { origins: ['https://collector.example.net'] },
    };
    expect(problemsOf({ ...structuredClone(manifest), connection }).map((p) => p.path)).toEqual([
      'connection.verify.url',
      'connection.authorization.origins.0',
    ]);
  });
});
