// "A 0.4 definition keeps validating unchanged" (0.5 train). The definitions below use only what
// schema 0.4.0 knew, every signature scheme shape it accepted included; they are frozen on
// purpose: never add a field a later train introduced to them (that belongs in parseDefinition.test.ts).
import { checkSignatureScheme, parseDefinition, SCHEMA_VERSION } from '@platform/integration-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

const handler = async () => {};
const Component = () => null;

/** A Standard Schema that is neither zod 3 nor zod 4. */
const plainSchema = {
  '~standard': { version: 1, vendor: 'acme', validate: (value: unknown) => ({ value }) },
};

/** The keys of a 0.4.0 definition and of its signature scheme, as that release declared them. */
const DEFINITION_KEYS_04 = [
  'slug',
  'components',
  'layouts',
  'tools',
  'webhooks',
  'schedules',
  'actions',
  'oauth',
  'egress',
  'storage',
  'proposes',
  'onActivate',
];
const SCHEME_KEYS_04 = [
  'algorithm',
  'format',
  'digestKey',
  'timestampKey',
  'timestampHeader',
  'signedPayload',
  'toleranceSeconds',
];

/** Every signature scheme shape 0.4.0 accepted, by the vendor whose deliveries it verifies. */
const SCHEMES_04: Record<string, Record<string, unknown> | undefined> = {
  'bare HMAC-SHA256 of the body (no scheme)': undefined,
  'empty scheme (all defaults)': {},
  'GitHub (sha256=<hex>)': { algorithm: 'sha256', format: 'digest' },
  'GitHub legacy (sha1=<hex>)': { algorithm: 'sha1' },
  'Shopify (base64 digest of the body)': { algorithm: 'sha256', format: 'digest', signedPayload: '{body}' },
  'Stripe (keyed, timestamp key, tolerance)': {
    algorithm: 'sha256',
    format: 'keyed',
    digestKey: 'v1',
    timestampKey: 't',
    signedPayload: '{timestamp}.{body}',
    toleranceSeconds: 300,
  },
  'keyed without a timestamp': { format: 'keyed', digestKey: 'sig' },
  'keyed with a timestamp key and no tolerance': {
    format: 'keyed',
    digestKey: 'v1',
    timestampKey: 't',
    signedPayload: '{timestamp}.{body}',
  },
  'Slack (keyed digest, timestamp header)': {
    format: 'keyed',
    digestKey: 'v0',
    timestampHeader: 'X-Slack-Request-Timestamp',
    signedPayload: 'v0:{timestamp}:{body}',
    toleranceSeconds: 300,
  },
  'digest with a timestamp header and tolerance, body only': {
    algorithm: 'sha1',
    timestampHeader: 'X-Acme-Timestamp',
    toleranceSeconds: 60,
  },
  'digest with a timestamp header in the payload': {
    format: 'digest',
    timestampHeader: 'X-Acme-Timestamp',
    signedPayload: '{timestamp}{body}',
  },
};

const webhooks = Object.entries(SCHEMES_04).map(([description, scheme], index) => ({
  id: `vendor-event-${index}`,
  description,
  payloadSchema: index % 2 === 0 ? z.object({ type: z.string() }) : z3.object({ type: z3.string() }),
  signature: {
    header: 'X-Vendor-Signature',
    secretName: 'VENDOR_WEBHOOK_SECRET',
    ...(scheme === undefined ? {} : { scheme }),
  },
  handler,
}));

/** A definition as a 0.4 partner wrote it, using every key. */
function notes04() {
  return {
    slug: 'acme-notes',
    components: {
      widgets: [
        {
          id: 'acme-notes-board',
          name: 'Notes board',
          component: Component,
          isCollapsible: true,
          isPinnable: true,
          aiFooterEnabled: false,
          icon: 'note-sticky',
        },
        { id: 'acme-notes-recent', name: 'Recent notes', component: { $$typeof: Symbol.for('react.memo') } },
      ],
    },
    layouts: {
      lg: { 'acme-notes-board': { x: 0, y: 0, w: 8, h: 4 }, 'acme-notes-recent': { x: 8, y: 0, w: 4, h: 4 } },
      md: { 'acme-notes-board': { x: 0, y: 0, w: 6, h: 4 } },
      sm: { 'acme-notes-recent': { x: 0, y: 0, w: 4, h: 2 } },
    },
    tools: [
      { name: 'search_notes', description: 'Search notes', input: z.object({ query: z.string() }), handler },
      { name: 'create_note', description: 'Create a note', input: z3.object({ title: z3.string() }) },
      { name: 'list_notebooks', description: 'List notebooks' },
    ],
    webhooks: [...webhooks, { id: 'unsigned-ping', payloadSchema: plainSchema, handler }],
    schedules: [
      { id: 'nightly-sync', cron: '0 3 * * *', description: 'Sync every night', handler },
      { id: 'refresh-cache', cron: '*/15 * * * 1-5', handler },
    ],
    actions: {
      'create-note': {
        description: 'Create a note',
        input: z.object({ title: z.string() }),
        output: z.object({ id: z.string() }),
        handler,
      },
      'archive-note': { description: 'Archive a note', input: z3.object({ id: z3.string() }), handler },
      'import-notes': { description: 'Import notes', input: plainSchema, output: plainSchema, handler },
    },
    oauth: {
      provider: {
        authorizationUrl: 'https://auth.acme.com/oauth/authorize?prompt=consent',
        tokenUrl: 'https://api.acme.com:8443/oauth/token',
        scopes: ['notes:read', 'notes:write'],
        pkce: true,
        tokenAuthMethod: 'client_secret_basic',
      },
      credentials: { clientIdSecretName: 'ACME_CLIENT_ID', clientSecretSecretName: 'ACME_CLIENT_SECRET' },
      onTokens: handler,
    },
    egress: ['https://auth.acme.com', 'https://api.acme.com:8443', 'https://*.acme-cdn.com'],
    storage: {
      account: {
        activation: z.object({ workspace: z.string() }),
        settings: z3.object({ theme: z3.string() }),
        'sync_state/notes': z.object({ cursor: z.string().optional() }),
        'cache/notes-index': z.array(z.string()),
      },
      user: { config: z.object({}), preferences: z3.object({}) },
    },
    proposes: {
      tools: {
        search_notes: { effect: 'read', sensitivity: 'low' },
        create_note: { effect: 'write', sensitivity: 'medium' },
        list_notebooks: { effect: 'destructive', sensitivity: 'high' },
      },
      scope: 'user',
    },
    onActivate: handler,
  };
}

const DEFINITIONS_04: Record<string, () => object> = {
  'a definition using every 0.4 key and signature scheme': notes04,
  'a definition with only a slug': () => ({ slug: 'acme' }),
  'a webhook-only definition': () => ({ slug: 'acme-hooks', webhooks: webhooks.slice(0, 3) }),
  'an actions-only definition with team scope': () => ({
    slug: 'acme-actions',
    actions: { ping: { description: 'Ping', input: z.object({}), handler } },
    proposes: { scope: 'team' },
  }),
};

/** A copy of the plain objects and arrays of a value; schemas, functions and the rest by reference. */
function copyTree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyTree);
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) {
    return value;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyTree(item)]));
}

describe(`a 0.4 definition under schema ${SCHEMA_VERSION}`, () => {
  it.each(Object.entries(DEFINITIONS_04))('%s parses with no problems, unchanged', (_, make) => {
    const input = make();
    const before = copyTree(input);
    const result = parseDefinition(input);
    if (!result.ok) throw new Error(`a 0.4 definition is refused:\n${result.error.message}`);
    // Nothing added (no defaults for the newer fields), nothing dropped, the input left as it was.
    expect(result.definition).toStrictEqual(before);
    expect(input).toStrictEqual(before);
  });

  it.each(Object.entries(SCHEMES_04))('the 0.4 scheme "%s" breaks no cross-field rule', (_, scheme) => {
    expect(checkSignatureScheme(scheme ?? {})).toEqual([]);
  });

  it('keeps schemas and handlers by reference', () => {
    const input = notes04();
    const result = parseDefinition(input);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.definition.actions?.['create-note']?.input).toBe(input.actions['create-note'].input);
    expect(result.definition.webhooks?.[0]?.payloadSchema).toBe(input.webhooks[0]?.payloadSchema);
    expect(result.definition.webhooks?.[0]?.handler).toBe(handler);
    expect(result.definition.storage?.account?.settings).toBe(input.storage.account.settings);
  });

  // Guards the table above: it stays representative of everything 0.4.0 accepted.
  it('covers every 0.4 definition key, scheme key, format and algorithm', () => {
    expect(Object.keys(notes04()).sort()).toEqual([...DEFINITION_KEYS_04].sort());
    const schemes = Object.values(SCHEMES_04).filter((scheme) => scheme !== undefined);
    expect([...new Set(schemes.flatMap((scheme) => Object.keys(scheme)))].sort()).toEqual(
      [...SCHEME_KEYS_04].sort(),
    );
    expect(new Set(schemes.map((scheme) => scheme.format))).toEqual(new Set([undefined, 'digest', 'keyed']));
    expect(new Set(schemes.map((scheme) => scheme.algorithm))).toEqual(
      new Set([undefined, 'sha256', 'sha1']),
    );
  });
});
