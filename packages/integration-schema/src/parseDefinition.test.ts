import {
  checkSignatureScheme,
  type DefinitionProblem,
  formatDefinitionProblems,
  HOST_ASSIGNED_FIELDS,
  IntegrationDefinitionError,
  parseDefinition,
  type WebhookSignatureScheme,
} from '@platform/integration-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

// ---------------------------------------------------------------------------------------------
// Builders

const handler = () => undefined;
const asyncHandler = async () => {};
const Component = () => null;

type Dict = Record<string, unknown>;

const widget = (id: unknown, extra: Dict = {}) => ({ id, name: 'Widget', component: Component, ...extra });
const tool = (name: unknown, extra: Dict = {}) => ({ name, description: 'A tool', ...extra });
const webhook = (id: unknown, extra: Dict = {}) => ({ id, payloadSchema: z.object({}), handler, ...extra });
const schedule = (id: unknown, cron: unknown = '0 3 * * *', extra: Dict = {}) => ({
  id,
  cron,
  handler,
  ...extra,
});
const action = (extra: Dict = {}) => ({ description: 'An action', input: z.object({}), handler, ...extra });
const oauth = (authorizationUrl: unknown, tokenUrl: unknown, providerExtra: Dict = {}) => ({
  provider: { authorizationUrl, tokenUrl, scopes: ['notes:read'], ...providerExtra },
  credentials: { clientIdSecretName: 'ACME_CLIENT_ID', clientSecretSecretName: 'ACME_CLIENT_SECRET' },
  onTokens: asyncHandler,
});
const signed = (scheme: Dict, id = 'note-created') =>
  webhook(id, { signature: { header: 'X-Acme-Signature', secretName: 'ACME_WEBHOOK_SECRET', scheme } });

/** The problems of a definition that must be refused. */
function refuse(input: unknown): readonly DefinitionProblem[] {
  const result = parseDefinition(input);
  if (result.ok) throw new Error('expected the definition to be refused, but it parsed');
  return result.problems;
}

function accept(input: unknown) {
  const result = parseDefinition(input);
  if (!result.ok) throw new Error(`expected the definition to parse:\n${result.error.message}`);
  return result.definition;
}

const SKEW_HINT =
  'if the field is newer than your @platform/integration-schema, check for schema skew with `platform upgrade --check`';
const HOST_REMINDER =
  '(host-assigned fields: productId, kind, trustTier, credentialModel, widgetConfigId, workspaceId, collapsed, isPinned, health, integrationMetadata)';
const KEBAB_ADVICE = 'is not kebab-case; use lowercase letters and digits separated by single hyphens';
const SCHEMA_HINT =
  'expected a schema (zod 3 >= 3.25.76, zod 4, or another Standard Schema with "~standard.validate")';
const REDIRECT_URI_MESSAGE =
  'unrecognized key "redirectUri": the host derives the callback URI from its own origin (https://<host>/api/integrations/<slug>/oauth/callback); remove it';

const STRIPE: WebhookSignatureScheme = {
  algorithm: 'sha256',
  format: 'keyed',
  digestKey: 'v1',
  timestampKey: 't',
  signedPayload: '{timestamp}.{body}',
  toleranceSeconds: 300,
};
const SLACK: WebhookSignatureScheme = {
  format: 'keyed',
  digestKey: 'v0',
  timestampHeader: 'X-Slack-Request-Timestamp',
  signedPayload: 'v0:{timestamp}:{body}',
  toleranceSeconds: 300,
};
const GITHUB: WebhookSignatureScheme = { algorithm: 'sha256', format: 'digest' };
const GITHUB_LEGACY: WebhookSignatureScheme = { algorithm: 'sha1' };
const SHOPIFY: WebhookSignatureScheme = { algorithm: 'sha256', format: 'digest', signedPayload: '{body}' };
const STANDARD_WEBHOOKS: WebhookSignatureScheme = {
  format: 'versioned',
  digestKey: 'v1',
  secretEncoding: 'base64',
  timestampHeader: 'webhook-timestamp',
  signedPayload: '{header:webhook-id}.{timestamp}.{body}',
  toleranceSeconds: 300,
};
const HUBSPOT_V3: WebhookSignatureScheme = {
  timestampHeader: 'X-HubSpot-Request-Timestamp',
  timestampUnit: 'milliseconds',
  signedPayload: '{method}{url}{body}{timestamp}',
  toleranceSeconds: 300,
};

/** A realistic definition that uses every key. */
function acmeNotes() {
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
          icon: 'note',
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
      {
        name: 'create_note',
        description: 'Create a note',
        input: z3.object({ title: z3.string() }),
        handler,
      },
      { name: 'list_notebooks_v2', description: 'List notebooks' },
    ],
    webhooks: [
      {
        id: 'github-push',
        description: 'push',
        payloadSchema: z.object({ ref: z.string() }),
        signature: { header: 'X-Hub-Signature-256', secretName: 'GITHUB_WEBHOOK_SECRET', scheme: GITHUB },
        handler: asyncHandler,
      },
      {
        id: 'github-legacy-push',
        payloadSchema: z.object({}),
        signature: { header: 'X-Hub-Signature', secretName: 'GITHUB_WEBHOOK_SECRET', scheme: GITHUB_LEGACY },
        handler: asyncHandler,
      },
      {
        id: 'stripe-invoice-paid',
        description: 'invoice.paid',
        payloadSchema: z3.object({ id: z3.string() }),
        signature: { header: 'Stripe-Signature', secretName: 'STRIPE_WEBHOOK_SECRET', scheme: STRIPE },
        handler: asyncHandler,
      },
      {
        id: 'slack-event',
        description: 'event_callback',
        payloadSchema: z.object({ type: z.string() }),
        signature: { header: 'X-Slack-Signature', secretName: 'SLACK_SIGNING_SECRET', scheme: SLACK },
        handler: asyncHandler,
      },
      {
        id: 'shopify-orders-create',
        description: 'orders/create',
        payloadSchema: z.object({}),
        signature: { header: 'X-Shopify-Hmac-Sha256', secretName: 'SHOPIFY_SECRET', scheme: SHOPIFY },
        handler: asyncHandler,
      },
      {
        id: 'note-created',
        description: 'note_created, bare HMAC-SHA256 of the body',
        payloadSchema: z.object({}),
        signature: { header: 'X-Acme-Signature', secretName: 'ACME_WEBHOOK_SECRET' },
        handler: asyncHandler,
      },
      { id: 'unsigned-ping', payloadSchema: z.object({}), handler: asyncHandler },
    ],
    schedules: [
      { id: 'nightly-sync', cron: '0 3 * * *', description: 'Sync every night', handler: asyncHandler },
      { id: 'refresh-cache', cron: '*/15 * * * 1-5', handler: asyncHandler },
    ],
    actions: {
      'create-note': {
        description: 'Create a note',
        input: z.object({ title: z.string() }),
        output: z.object({ id: z.string() }),
        handler: asyncHandler,
      },
      'archive-note': {
        description: 'Archive a note',
        input: z3.object({ id: z3.string() }),
        handler: asyncHandler,
      },
    },
    oauth: {
      provider: {
        authorizationUrl: 'https://auth.acme.com/oauth/authorize?prompt=consent',
        tokenUrl: 'https://api.acme.com:8443/oauth/token',
        scopes: ['notes:read', 'notes:write'],
        pkce: true,
        tokenAuthMethod: 'client_secret_post',
      },
      credentials: { clientIdSecretName: 'ACME_CLIENT_ID', clientSecretSecretName: 'ACME_CLIENT_SECRET' },
      onTokens: asyncHandler,
    },
    egress: [
      'https://auth.acme.com',
      'https://api.acme.com:8443',
      'https://*.acme-cdn.com',
      'http://localhost:3000',
    ],
    storage: {
      account: {
        activation: z.object({ workspace: z.string() }),
        settings: z3.object({ theme: z3.string() }),
        metrics_summary: z.object({}),
        'sync_state/notes': z.object({ cursor: z.string().optional() }),
        'cache/notes-index': z.array(z.string()),
      },
      user: { config: z.object({}), preferences: z3.object({}), 'cache/recent_2': z.object({}) },
    },
    proposes: {
      tools: {
        search_notes: { effect: 'read', sensitivity: 'low' },
        create_note: { effect: 'write', sensitivity: 'medium' },
        list_notebooks_v2: { effect: 'destructive', sensitivity: 'high' },
      },
      scope: 'team',
    },
    onActivate: asyncHandler,
  };
}

// ---------------------------------------------------------------------------------------------

describe('valid definitions', () => {
  it('accepts a realistic definition using every key and keeps schemas and functions by reference', () => {
    const input = acmeNotes();
    const result = parseDefinition(input);
    expect(result.ok).toBe(true);
    const definition = accept(input);
    expect(definition.slug).toBe('acme-notes');
    expect(definition.actions?.['create-note']?.input).toBe(input.actions['create-note'].input);
    expect(definition.actions?.['create-note']?.handler).toBe(asyncHandler);
    expect(definition.webhooks?.[2]?.signature?.scheme).toEqual(STRIPE);
    expect(definition.storage?.account?.['sync_state/notes']).toBe(input.storage.account['sync_state/notes']);
    expect(definition.onActivate).toBe(asyncHandler);
  });

  it('accepts a minimal definition with only a slug', () => {
    expect(parseDefinition({ slug: 'a' })).toEqual({ ok: true, definition: { slug: 'a' } });
  });

  it('accepts OAuth endpoints covered by a subdomain wildcard', () => {
    accept({
      slug: 'acme',
      oauth: oauth('https://auth.acme.com/authorize', 'https://api.eu.acme.com/token'),
      egress: ['https://*.acme.com'],
    });
  });

  it.each(['sha256', 'sha1'] as const)('accepts algorithm %s', (algorithm) => {
    accept({ slug: 'a', webhooks: [signed({ algorithm })] });
  });
});

describe('definition errors: slug', () => {
  it.each(['3d-prints', 'a', '42', 'acme-notes-2', 'x1-y2-z3'])(
    'accepts slug %j (digits may lead)',
    (slug) => {
      accept({ slug });
    },
  );

  it.each(['Acme', 'acme_notes', 'acme--notes', '-acme', 'acme-', 'acme notes', 'acme.notes', ''])(
    'refuses slug %j at path slug',
    (slug) => {
      expect(refuse({ slug })).toEqual([{ path: 'slug', message: expect.stringContaining(KEBAB_ADVICE) }]);
    },
  );

  it('names the slug and suggests a kebab-case spelling', () => {
    expect(refuse({ slug: 'Acme_Notes' })).toEqual([
      { path: 'slug', message: `slug "Acme_Notes" ${KEBAB_ADVICE} (for example "acme-notes")` },
    ]);
  });

  it('refuses a missing slug and a slug of the wrong type', () => {
    expect(refuse({})).toEqual([{ path: 'slug', message: 'is required; add a string' }]);
    expect(refuse({ slug: 5 })).toEqual([{ path: 'slug', message: 'expected a string, received number' }]);
  });
});

describe('definition errors: unrecognised keys', () => {
  it('lists the host-assigned fields of the spec', () => {
    expect(HOST_ASSIGNED_FIELDS).toEqual([
      'productId',
      'kind',
      'trustTier',
      'credentialModel',
      'widgetConfigId',
      'workspaceId',
      'collapsed',
      'isPinned',
      'health',
      'integrationMetadata',
    ]);
  });

  it.each([...HOST_ASSIGNED_FIELDS])(
    'refuses host-assigned %s at the root with the reminder and the skew hint',
    (field) => {
      expect(refuse({ slug: 'acme', [field]: 'x' })).toEqual([
        {
          path: '(root)',
          message: `unrecognized key "${field}"; remove it. ${field} is assigned by the host and never part of a definition ${HOST_REMINDER}; ${SKEW_HINT}`,
        },
      ]);
    },
  );

  it.each(['widgetConfigId', 'workspaceId', 'collapsed', 'isPinned', 'health', 'integrationMetadata'])(
    'refuses host-resolved widget field %s inside a widget with the reminder',
    (field) => {
      const problems = refuse({
        slug: 'acme',
        components: { widgets: [widget('acme-board'), widget('acme-list', { [field]: true })] },
      });
      expect(problems).toEqual([
        {
          path: 'components.widgets.1',
          message: `unrecognized key "${field}"; remove it. ${field} is assigned by the host and never part of a definition ${HOST_REMINDER}; ${SKEW_HINT}`,
        },
      ]);
    },
  );

  it('names every unknown key and only the host-assigned ones in the reminder', () => {
    expect(refuse({ slug: 'acme', foo: 1, kind: 'widget' })).toEqual([
      {
        path: '(root)',
        message: `unrecognized keys "foo", "kind"; remove them. kind is assigned by the host and never part of a definition ${HOST_REMINDER}; ${SKEW_HINT}`,
      },
    ]);
    expect(refuse({ slug: 'acme', productId: 'p', trustTier: 'first-party' })).toEqual([
      {
        path: '(root)',
        message: `unrecognized keys "productId", "trustTier"; remove them. productId, trustTier are assigned by the host and never part of a definition ${HOST_REMINDER}; ${SKEW_HINT}`,
      },
    ]);
  });

  it('gives a non-host-assigned unknown key the skew hint but not the host-assigned reminder', () => {
    const problems = refuse({ slug: 'acme', description: 'Notes for Acme' });
    expect(problems).toEqual([
      { path: '(root)', message: `unrecognized key "description"; remove it (${SKEW_HINT})` },
    ]);
    expect(problems[0]?.message).not.toContain('assigned by the host');
    expect(problems[0]?.message).not.toContain('host-assigned fields');
  });

  it('refuses redirectUri with its own message', () => {
    const input = {
      slug: 'acme',
      oauth: oauth('https://auth.acme.com/a', 'https://auth.acme.com/t', { redirectUri: 'https://x/cb' }),
      egress: ['https://auth.acme.com'],
    };
    expect(refuse(input)).toEqual([{ path: 'oauth.provider', message: REDIRECT_URI_MESSAGE }]);
  });

  it('refuses redirectUri beside another unknown key with two problems', () => {
    const input = {
      slug: 'acme',
      oauth: oauth('https://auth.acme.com/a', 'https://auth.acme.com/t', {
        redirectUri: 'https://x/cb',
        clientId: 'id',
      }),
      egress: ['https://auth.acme.com'],
    };
    expect(refuse(input)).toEqual([
      { path: 'oauth.provider', message: REDIRECT_URI_MESSAGE },
      { path: 'oauth.provider', message: `unrecognized key "clientId"; remove it (${SKEW_HINT})` },
    ]);
  });

  it.each<[string, Dict, string, string]>([
    [
      'oauth',
      {
        oauth: { ...oauth('https://a.acme.com/a', 'https://a.acme.com/t'), scope: 'x' },
        egress: ['https://a.acme.com'],
      },
      'oauth',
      'scope',
    ],
    [
      'oauth.provider',
      {
        oauth: oauth('https://a.acme.com/a', 'https://a.acme.com/t', { audience: 'x' }),
        egress: ['https://a.acme.com'],
      },
      'oauth.provider',
      'audience',
    ],
    [
      'signature',
      { webhooks: [webhook('hook', { signature: { header: 'X-Sig', secretName: 'S', algorithm: 'sha1' } })] },
      'webhooks.0.signature',
      'algorithm',
    ],
    [
      'signature.scheme',
      { webhooks: [signed({ encoding: 'base64' })] },
      'webhooks.0.signature.scheme',
      'encoding',
    ],
    [
      'widget',
      { components: { widgets: [widget('acme-board', { title: 'Board' })] } },
      'components.widgets.0',
      'title',
    ],
    ['components', { components: { panels: [] } }, 'components', 'panels'],
    ['tool', { tools: [tool('sync', { effect: 'read' })] }, 'tools.0', 'effect'],
    ['webhook', { webhooks: [webhook('hook', { secret: 'x' })] }, 'webhooks.0', 'secret'],
    [
      'schedule',
      { schedules: [schedule('nightly', '0 3 * * *', { timezone: 'UTC' })] },
      'schedules.0',
      'timezone',
    ],
    ['action', { actions: { 'do-it': action({ effect: 'write' }) } }, 'actions.do-it', 'effect'],
    [
      'proposes.tools entry',
      {
        tools: [tool('sync')],
        proposes: { tools: { sync: { effect: 'read', sensitivity: 'low', risk: 1 } } },
      },
      'proposes.tools.sync',
      'risk',
    ],
    ['proposes', { proposes: { audience: 'team' } }, 'proposes', 'audience'],
    ['layouts', { layouts: { xl: {} } }, 'layouts', 'xl'],
    [
      'layout rect',
      { components: { widgets: [widget('w')] }, layouts: { lg: { w: { x: 0, y: 0, w: 1, h: 1, z: 2 } } } },
      'layouts.lg.w',
      'z',
    ],
    ['storage', { storage: { team: {} } }, 'storage', 'team'],
  ])('refuses an unknown key inside %s', (_where, extra, path, key) => {
    expect(refuse({ slug: 'acme', ...extra })).toEqual([
      { path, message: `unrecognized key "${key}"; remove it (${SKEW_HINT})` },
    ]);
  });
});

describe('definition errors: widgets', () => {
  it('refuses a widget id that is not kebab-case at components.widgets.<i>.id', () => {
    expect(
      refuse({ slug: 'acme', components: { widgets: [widget('acme-board'), widget('Notes_Board')] } }),
    ).toEqual([
      {
        path: 'components.widgets.1.id',
        message: `widget id "Notes_Board" ${KEBAB_ADVICE} (for example "notes-board")`,
      },
    ]);
  });

  it('refuses a duplicate widget id at components.widgets', () => {
    const widgets = [widget('acme-board'), widget('acme-list'), widget('acme-board')];
    expect(refuse({ slug: 'acme', components: { widgets } })).toEqual([
      {
        path: 'components.widgets',
        message: 'duplicate widget id "acme-board" (at 0 and 2); each widget id must be unique',
      },
    ]);
  });

  it('refuses a widget missing name or with a component that is not one', () => {
    expect(
      refuse({ slug: 'acme', components: { widgets: [{ id: 'acme-board', component: 'Board' }] } }),
    ).toEqual([
      { path: 'components.widgets.0.name', message: 'is required; add a string' },
      { path: 'components.widgets.0.component', message: 'expected a React component' },
    ]);
  });

  // Regression: checkDefinitionRules once indexed `value.filter(isDict)`, so an entry after a
  // non-object entry was reported one index too low and duplicate positions shifted.
  it('reports the real index of a widget that follows a non-object entry', () => {
    const problems = refuse({
      slug: 'acme',
      components: { widgets: [null, widget('Bad_Id'), widget('a'), widget('a')] },
    });
    expect(problems).toContainEqual({
      path: 'components.widgets.1.id',
      message: expect.stringContaining('"Bad_Id"'),
    });
    expect(problems).toContainEqual({
      path: 'components.widgets',
      message: 'duplicate widget id "a" (at 2 and 3); each widget id must be unique',
    });
  });
});

describe('paths after a non-object entry', () => {
  it('keeps the real index of tools, webhooks and schedules', () => {
    const problems = refuse({
      slug: 'acme',
      tools: ['sync', tool('Sync'), tool('a'), tool('a')],
      webhooks: [0, signed({ format: 'keyed' })],
      schedules: [null, schedule('', 'bad')],
    });
    expect(problems).toContainEqual({ path: 'tools.1.name', message: expect.stringContaining('"Sync"') });
    expect(problems).toContainEqual({
      path: 'tools',
      message: 'duplicate tool name "a" (at 2 and 3); each tool name must be unique',
    });
    expect(problems).toContainEqual({
      path: 'webhooks.1.signature.scheme',
      message: expect.stringContaining('format "keyed" needs digestKey'),
    });
    expect(problems).toContainEqual({ path: 'schedules.1.id', message: `schedule id "" ${KEBAB_ADVICE}` });
    expect(problems).toContainEqual({
      path: 'schedules.1.cron',
      message: expect.stringMatching(/^invalid cron "bad": /),
    });
    expect(problems.map((problem) => problem.path).sort()).toEqual(
      [
        'tools.0',
        'webhooks.0',
        'schedules.0',
        'tools.1.name',
        'tools',
        'webhooks.1.signature.scheme',
        'schedules.1.id',
        'schedules.1.cron',
      ].sort(),
    );
  });
});

describe('definition errors: tools', () => {
  it.each([
    ['2fa_check', ' (for example "fa_check")'],
    ['Sync', ' (for example "sync")'],
    ['sync-notes', ' (for example "sync_notes")'],
    ['syncNotes', ' (for example "sync_notes")'],
    ['sync__notes', ' (for example "sync_notes")'],
    ['sync_', ' (for example "sync")'],
    ['_sync', ' (for example "sync")'],
    ['123', ''],
  ])('refuses tool name %j at tools.<i>.name', (name, example) => {
    expect(refuse({ slug: 'acme', tools: [tool('search_notes'), tool(name)] })).toEqual([
      {
        path: 'tools.1.name',
        message: `tool name "${name}" is not lowercase snake_case starting with a letter; the model calls tools by this exact string${example}`,
      },
    ]);
  });

  it.each(['sync', 'search_notes', 'get_v2_items', 'a1', 'x'])('accepts tool name %j', (name) => {
    accept({ slug: 'acme', tools: [tool(name)] });
  });

  it('refuses duplicate tool names at tools', () => {
    expect(refuse({ slug: 'acme', tools: [tool('search_notes'), tool('search_notes')] })).toEqual([
      {
        path: 'tools',
        message: 'duplicate tool name "search_notes" (at 0 and 1); each tool name must be unique',
      },
    ]);
  });
});

describe('definition errors: webhooks, schedules, actions', () => {
  it.each(['issue.created', 'note_created'])(
    'refuses vendor event name %j as a webhook id and points to description',
    (id) => {
      expect(refuse({ slug: 'acme', webhooks: [webhook('note-updated'), webhook(id)] })).toEqual([
        {
          path: 'webhooks.1.id',
          message: expect.stringContaining(`webhook id "${id}" ${KEBAB_ADVICE}`),
        },
      ]);
      expect(refuse({ slug: 'acme', webhooks: [webhook(id)] })[0]?.message).toMatch(
        /; a vendor event name is never a valid id, put it in description instead$/,
      );
    },
  );

  it('refuses a webhook id with neither dot nor underscore without the vendor hint', () => {
    expect(refuse({ slug: 'acme', webhooks: [webhook('NoteCreated')] })).toEqual([
      {
        path: 'webhooks.0.id',
        message: `webhook id "NoteCreated" ${KEBAB_ADVICE} (for example "note-created")`,
      },
    ]);
  });

  it('refuses duplicate webhook ids at webhooks', () => {
    expect(refuse({ slug: 'acme', webhooks: [webhook('a'), webhook('b'), webhook('b')] })).toEqual([
      { path: 'webhooks', message: 'duplicate webhook id "b" (at 1 and 2); each webhook id must be unique' },
    ]);
  });

  it('refuses a schedule id that is not kebab-case at schedules.<i>.id', () => {
    expect(refuse({ slug: 'acme', schedules: [schedule('nightly'), schedule('Nightly Sync')] })).toEqual([
      {
        path: 'schedules.1.id',
        message: `schedule id "Nightly Sync" ${KEBAB_ADVICE} (for example "nightly-sync")`,
      },
    ]);
  });

  it('refuses duplicate schedule ids at schedules', () => {
    expect(refuse({ slug: 'acme', schedules: [schedule('nightly'), schedule('nightly')] })).toEqual([
      {
        path: 'schedules',
        message: 'duplicate schedule id "nightly" (at 0 and 1); each schedule id must be unique',
      },
    ]);
  });

  it.each(['0 3 * *', '@daily', '0 0 3 * * *', '60 * * * *', '0 9 * * MON', '5-1 * * * *', '*/0 * * * *'])(
    'refuses cron %j at schedules[<id>]',
    (cron) => {
      const problems = refuse({
        slug: 'acme',
        schedules: [schedule('hourly'), schedule('nightly-sync', cron)],
      });
      expect(problems).toEqual([{ path: 'schedules[nightly-sync]', message: expect.any(String) }]);
      const prefix = `invalid cron "${cron}": `;
      expect(problems[0]?.message.startsWith(prefix)).toBe(true);
      expect(problems[0]?.message.length).toBeGreaterThan(prefix.length);
    },
  );

  it('names the field count of a cron with too few fields', () => {
    expect(refuse({ slug: 'acme', schedules: [schedule('nightly', '0 3 * *')] })).toEqual([
      {
        path: 'schedules[nightly]',
        message:
          'invalid cron "0 3 * *": expected 5 fields (minute hour day-of-month month day-of-week), got 4',
      },
    ]);
  });

  it('falls back to schedules.<i>.cron when the id is not a string or is empty', () => {
    expect(refuse({ slug: 'acme', schedules: [schedule(42, 'bad')] })).toEqual([
      { path: 'schedules.0.id', message: 'expected a string, received number' },
      { path: 'schedules.0.cron', message: expect.stringMatching(/^invalid cron "bad": /) },
    ]);
    expect(refuse({ slug: 'acme', schedules: [schedule('ok'), schedule('', 'bad')] })).toEqual([
      { path: 'schedules.1.id', message: `schedule id "" ${KEBAB_ADVICE}` },
      { path: 'schedules.1.cron', message: expect.stringMatching(/^invalid cron "bad": /) },
    ]);
  });

  it.each([
    ['CreateNote', 'create-note'],
    ['create_note', 'create-note'],
    ['create note', 'create-note'],
  ])('refuses action name %j at actions.<key>', (name, suggestion) => {
    expect(refuse({ slug: 'acme', actions: { 'archive-note': action(), [name]: action() } })).toEqual([
      {
        path: `actions.${name}`,
        message: `action name "${name}" ${KEBAB_ADVICE} (for example "${suggestion}")`,
      },
    ]);
  });
});

describe('definition errors: OAuth', () => {
  it('names the origin to add when authorizationUrl is not covered by egress', () => {
    const input = {
      slug: 'acme',
      oauth: oauth('https://auth.acme.com/oauth/authorize', 'https://api.acme.com/oauth/token'),
      egress: ['https://api.acme.com'],
    };
    expect(refuse(input)).toEqual([
      {
        path: 'oauth.provider.authorizationUrl',
        message:
          'origin https://auth.acme.com is not covered by egress; add "https://auth.acme.com" to egress',
      },
    ]);
  });

  it('reports both endpoints when egress is missing', () => {
    const input = { slug: 'acme', oauth: oauth('https://auth.acme.com/a', 'https://api.acme.com/t') };
    expect(refuse(input)).toEqual([
      {
        path: 'oauth.provider.authorizationUrl',
        message:
          'origin https://auth.acme.com is not covered by egress; add "https://auth.acme.com" to egress',
      },
      {
        path: 'oauth.provider.tokenUrl',
        message: 'origin https://api.acme.com is not covered by egress; add "https://api.acme.com" to egress',
      },
    ]);
  });

  it('a wildcard covers https://auth.acme.com but not the bare https://acme.com', () => {
    const input = {
      slug: 'acme',
      oauth: oauth('https://auth.acme.com/authorize', 'https://acme.com/token'),
      egress: ['https://*.acme.com'],
    };
    expect(refuse(input)).toEqual([
      {
        path: 'oauth.provider.tokenUrl',
        message: 'origin https://acme.com is not covered by egress; add "https://acme.com" to egress',
      },
    ]);
  });

  it('includes a non-default port in the origin to add', () => {
    const input = {
      slug: 'acme',
      oauth: oauth('https://api.acme.com/authorize', 'https://api.acme.com:8443/token'),
      egress: ['https://api.acme.com', 'https://*.acme.com'],
    };
    expect(refuse(input)).toEqual([
      {
        path: 'oauth.provider.tokenUrl',
        message:
          'origin https://api.acme.com:8443 is not covered by egress; add "https://api.acme.com:8443" to egress',
      },
    ]);
  });

  it('refuses a non-https endpoint even when egress covers it', () => {
    const input = {
      slug: 'acme',
      oauth: oauth('http://auth.acme.com/authorize', 'https://auth.acme.com/token'),
      egress: ['http://auth.acme.com', 'https://auth.acme.com'],
    };
    expect(refuse(input)).toEqual([
      {
        path: 'oauth.provider.authorizationUrl',
        message: '"http://auth.acme.com/authorize" must use https://',
      },
    ]);
  });

  it('refuses an endpoint that is not an absolute URL', () => {
    const input = {
      slug: 'acme',
      oauth: oauth('https://auth.acme.com/a', '/oauth/token'),
      egress: ['https://auth.acme.com'],
    };
    expect(refuse(input)).toEqual([
      {
        path: 'oauth.provider.tokenUrl',
        message: '"/oauth/token" is not a URL; write an absolute https:// URL',
      },
    ]);
  });
});

describe('definition errors: storage keys', () => {
  const storageProblems = (scope: 'account' | 'user', key: string) =>
    refuse({ slug: 'acme', storage: { [scope]: { cache: z.object({}), [key]: z.object({}) } } });

  it.each([
    ['cache/notes/today', 'has more than one "/"; use "<dataType>" or "<dataType>/<subtype>"'],
    ['cache/', 'has an empty segment; use "<dataType>" or "<dataType>/<subtype>"'],
    ['/cache', 'has an empty segment; use "<dataType>" or "<dataType>/<subtype>"'],
    ['cache//notes', 'has more than one "/"; use "<dataType>" or "<dataType>/<subtype>"'],
    [
      'cache/notes!',
      'has illegal characters; use lowercase letters, digits, "_" and "-" (dots are not allowed)',
    ],
    [
      'cache.notes',
      'has illegal characters; use lowercase letters, digits, "_" and "-" (dots are not allowed)',
    ],
    ['Cache', 'has illegal characters; use lowercase letters, digits, "_" and "-" (dots are not allowed)'],
    [
      'cache/Notes',
      'has illegal characters; use lowercase letters, digits, "_" and "-" (dots are not allowed)',
    ],
    [
      'cache/a b',
      'has illegal characters; use lowercase letters, digits, "_" and "-" (dots are not allowed)',
    ],
  ])('refuses malformed key %j at storage.account.<key>', (key, message) => {
    expect(storageProblems('account', key)).toEqual([
      { path: `storage.account.${key}`, message: `storage key "${key}" ${message}` },
    ]);
  });

  it('refuses a data type not allowed under storage.user', () => {
    expect(storageProblems('user', 'settings')).toEqual([
      {
        path: 'storage.user.settings',
        message:
          'storage key "settings": data type "settings" is not allowed under storage.user; use one of config, preferences, cache',
      },
    ]);
  });

  it('refuses a data type not allowed under storage.account', () => {
    expect(storageProblems('account', 'preferences/theme')).toEqual([
      {
        path: 'storage.account.preferences/theme',
        message:
          'storage key "preferences/theme": data type "preferences" is not allowed under storage.account; use one of activation, settings, metrics_summary, sync_state, cache',
      },
    ]);
  });

  it.each<['account' | 'user', string]>([
    ['account', 'secret'],
    ['user', 'secret'],
    ['account', 'secret/api_key'],
  ])('refuses the reserved data type in storage.%s.%s', (scope, key) => {
    expect(storageProblems(scope, key)).toEqual([
      {
        path: `storage.${scope}.${key}`,
        message: `storage key "${key}": "secret" is reserved; keep secrets in ctx.secrets instead`,
      },
    ]);
  });

  it('refuses a storage value that is not a schema', () => {
    expect(refuse({ slug: 'acme', storage: { account: { settings: { theme: 'string' } } } })).toEqual([
      { path: 'storage.account.settings', message: SCHEMA_HINT },
    ]);
  });
});

describe('webhook signature scheme cross-field rules', () => {
  it.each<[string, Dict, string]>([
    [
      'digestKey without keyed',
      { digestKey: 'v1' },
      'digestKey is only used with format "keyed" or "versioned"; set one of them or remove digestKey',
    ],
    [
      'timestampKey without keyed',
      { format: 'digest', timestampKey: 't' },
      'timestampKey is only used with format "keyed"; set format: "keyed" or use timestampHeader',
    ],
    [
      'keyed without digestKey',
      { format: 'keyed', timestampKey: 't' },
      'format "keyed" needs digestKey, the key whose values are digests (for example "v1" in "t=...,v1=...")',
    ],
    [
      'both timestampKey and timestampHeader',
      { format: 'keyed', digestKey: 'v1', timestampKey: 't', timestampHeader: 'X-Timestamp' },
      'timestampKey and timestampHeader are both set; keep one timestamp source',
    ],
    [
      'toleranceSeconds without a timestamp source',
      { format: 'keyed', digestKey: 'v1', toleranceSeconds: 300 },
      'toleranceSeconds needs a timestamp source; add timestampKey (keyed) or timestampHeader',
    ],
    [
      '{timestamp} in signedPayload without a source',
      { signedPayload: '{timestamp}.{body}' },
      'signedPayload uses {timestamp} but no timestamp source is set; add timestampKey (keyed) or timestampHeader',
    ],
    [
      'signedPayload without {body}',
      { timestampHeader: 'X-Timestamp', signedPayload: '{timestamp}' },
      'signedPayload "{timestamp}" must contain {body}',
    ],
    [
      'an unknown placeholder',
      { signedPayload: '{body}.{nonce}' },
      'signedPayload has unknown placeholder(s) {nonce}; only {timestamp}, {body}, {method}, {url} and {header:<name>} are replaced',
    ],
    [
      'versioned without digestKey',
      { format: 'versioned', timestampHeader: 'webhook-timestamp' },
      'format "versioned" needs digestKey, the version whose entries are digests (for example "v1" in "v1,<digest> v1,<digest>")',
    ],
    [
      'timestampKey with versioned',
      { format: 'versioned', digestKey: 'v1', timestampKey: 't' },
      'timestampKey is only used with format "keyed"; set format: "keyed" or use timestampHeader',
    ],
    [
      'timestampUnit without a timestamp source',
      { timestampUnit: 'milliseconds' },
      'timestampUnit needs a timestamp source; add timestampKey (keyed) or timestampHeader',
    ],
    [
      '{header:} without a name',
      { signedPayload: '{header:}.{body}' },
      "signedPayload placeholder {header:} names no header; write the header's name, for example {header:webhook-id}",
    ],
    [
      '{header:<name>} with an invalid name',
      { signedPayload: '{header:webhook id}.{body}' },
      'signedPayload placeholder {header:webhook id} names an invalid header "webhook id"; a header name has letters, digits and !#$%&\'*+.^_`|~- only',
    ],
    [
      'a misspelt placeholder among new ones',
      { signedPayload: '{Method}{url}{body}' },
      'signedPayload has unknown placeholder(s) {Method}; only {timestamp}, {body}, {method}, {url} and {header:<name>} are replaced',
    ],
  ])('refuses %s at webhooks.<i>.signature.scheme', (_rule, scheme, message) => {
    expect(refuse({ slug: 'acme', webhooks: [webhook('ping'), signed(scheme)] })).toEqual([
      { path: 'webhooks.1.signature.scheme', message },
    ]);
    expect(checkSignatureScheme(scheme as WebhookSignatureScheme)).toEqual([message]);
  });

  it.each<[string, WebhookSignatureScheme]>([
    ['Stripe', STRIPE],
    ['Slack', SLACK],
    ['GitHub', GITHUB],
    ['GitHub sha1', GITHUB_LEGACY],
    ['Shopify', SHOPIFY],
    ['Standard Webhooks', STANDARD_WEBHOOKS],
    ['HubSpot v3', HUBSPOT_V3],
    [
      'Slack with method and a header',
      { ...SLACK, signedPayload: 'v0:{timestamp}:{method}:{header:x-slack-retry-num}:{body}' },
    ],
    ['versioned without a timestamp', { format: 'versioned', digestKey: 'v1' }],
    ['keyed in milliseconds', { ...STRIPE, timestampUnit: 'milliseconds' }],
    ['base64 secret on a digest scheme', { secretEncoding: 'base64' }],
    ['explicit defaults', { secretEncoding: 'utf8', timestampHeader: 'X-T', timestampUnit: 'seconds' }],
    ['empty', {}],
    [
      'digest with a timestamp header',
      { timestampHeader: 'X-Timestamp', signedPayload: '{timestamp}:{body}', toleranceSeconds: 60 },
    ],
  ])('accepts a %s style scheme', (_style, scheme) => {
    expect(checkSignatureScheme(scheme)).toEqual([]);
    accept({ slug: 'acme', webhooks: [signed({ ...scheme })] });
  });

  it('reports every rule a scheme breaks', () => {
    expect(checkSignatureScheme({ timestampKey: 't', toleranceSeconds: 5, signedPayload: '{ts}' })).toEqual([
      'timestampKey is only used with format "keyed"; set format: "keyed" or use timestampHeader',
      'toleranceSeconds needs a timestamp source; add timestampKey (keyed) or timestampHeader',
      'signedPayload "{ts}" must contain {body}',
      'signedPayload has unknown placeholder(s) {ts}; only {timestamp}, {body}, {method}, {url} and {header:<name>} are replaced',
    ]);
  });

  // Every scheme a 0.4 definition could declare (each field alone and the vendor styles together)
  // validates the same under the new rules: the new fields are optional and change no default.
  it.each<[string, WebhookSignatureScheme]>([
    ['algorithm sha1', { algorithm: 'sha1' }],
    ['format digest', { format: 'digest' }],
    ['keyed, digestKey only', { format: 'keyed', digestKey: 'v1' }],
    ['keyed with timestampKey', { format: 'keyed', digestKey: 'v1', timestampKey: 't' }],
    ['timestampHeader alone', { timestampHeader: 'X-Timestamp' }],
    ['signedPayload {body}', { signedPayload: '{body}' }],
    ['literal text around', { timestampHeader: 'X-T', signedPayload: 'v0:{timestamp}:{body}' }],
    ['toleranceSeconds', { timestampHeader: 'X-T', toleranceSeconds: 1 }],
    ['Stripe', STRIPE],
    ['Slack', SLACK],
    ['GitHub', GITHUB],
    ['Shopify', SHOPIFY],
  ])('still accepts the 0.4 scheme %s unchanged', (_name, scheme) => {
    expect(checkSignatureScheme(scheme)).toEqual([]);
    const definition = accept({ slug: 'acme', webhooks: [signed({ ...scheme })] });
    expect(definition.webhooks?.[0]?.signature?.scheme).toEqual(scheme);
  });

  it('accepts a webhook with a reply function and refuses a reply that is not one', () => {
    const reply = () => ({ body: 'ok' });
    const definition = accept({ slug: 'acme', webhooks: [webhook('slack-event', { reply })] });
    expect(definition.webhooks?.[0]?.reply).toBe(reply);
    expect(refuse({ slug: 'acme', webhooks: [webhook('slack-event', { reply: 'challenge' })] })).toEqual([
      { path: 'webhooks.0.reply', message: 'expected a function' },
    ]);
  });

  it.each<[string, Dict, string]>([
    ['algorithm', { algorithm: 'md5' }, 'webhooks.0.signature.scheme.algorithm'],
    ['format', { format: 'header' }, 'webhooks.0.signature.scheme.format'],
    [
      'toleranceSeconds 0',
      { timestampHeader: 'X-T', toleranceSeconds: 0 },
      'webhooks.0.signature.scheme.toleranceSeconds',
    ],
    [
      'toleranceSeconds 1.5',
      { timestampHeader: 'X-T', toleranceSeconds: 1.5 },
      'webhooks.0.signature.scheme.toleranceSeconds',
    ],
    ['empty digestKey', { format: 'keyed', digestKey: '' }, 'webhooks.0.signature.scheme.digestKey'],
    [
      'timestampUnit',
      { timestampHeader: 'X-T', timestampUnit: 'ms' },
      'webhooks.0.signature.scheme.timestampUnit',
    ],
    ['secretEncoding', { secretEncoding: 'hex' }, 'webhooks.0.signature.scheme.secretEncoding'],
  ])('refuses a bad %s by shape', (_field, scheme, path) => {
    expect(refuse({ slug: 'acme', webhooks: [signed(scheme)] })).toEqual([
      { path, message: expect.any(String) },
    ]);
  });

  // Regression: checkSignatureScheme once called `scheme.signedPayload.matchAll(...)` on the raw
  // input, so a non-string signedPayload made parseDefinition throw a TypeError.
  it('reports a non-string signedPayload instead of throwing', () => {
    expect(refuse({ slug: 'acme', webhooks: [signed({ signedPayload: 5 })] })).toEqual([
      { path: 'webhooks.0.signature.scheme.signedPayload', message: 'expected a string, received number' },
    ]);
  });
});

describe('definition errors: egress entries', () => {
  const egressProblems = (entry: string) => refuse({ slug: 'acme', egress: ['https://api.acme.com', entry] });
  const notExact = (entry: string, origin: string) =>
    `"${entry}" is not an exact origin; write "${origin}" (no path, query, credentials, trailing slash or default port)`;

  it.each([
    ['https://api.acme.com/v1', 'https://api.acme.com'],
    ['https://api.acme.com?key=1', 'https://api.acme.com'],
    ['https://api.acme.com#top', 'https://api.acme.com'],
    ['https://api.acme.com/', 'https://api.acme.com'],
    ['https://api.acme.com:443', 'https://api.acme.com'],
    ['http://api.acme.com:80', 'http://api.acme.com'],
    ['https://API.acme.com', 'https://api.acme.com'],
    ['HTTPS://api.acme.com', 'https://api.acme.com'],
    ['https://user:pw@api.acme.com', 'https://api.acme.com'],
  ])('refuses %j and names the exact origin', (entry, origin) => {
    expect(egressProblems(entry)).toEqual([{ path: 'egress.1', message: notExact(entry, origin) }]);
  });

  it.each([
    ['ftp://files.acme.com', 'ftp:'],
    ['wss://stream.acme.com', 'wss:'],
  ])('refuses the non-http scheme of %j', (entry, protocol) => {
    expect(egressProblems(entry)).toEqual([
      { path: 'egress.1', message: `"${entry}" uses ${protocol}; egress origins are https:// (or http://)` },
    ]);
  });

  it('refuses an entry that is not a URL', () => {
    expect(egressProblems('api.acme.com')).toEqual([
      {
        path: 'egress.1',
        message:
          '"api.acme.com" is not an origin; write the scheme and host, for example "https://api.acme.com"',
      },
    ]);
  });

  it.each(['https://*.com', 'https://*.acme', 'https://*.ACME.com', 'https://*.-acme.com'])(
    'refuses wildcard %j over fewer than two valid lowercase labels',
    (entry) => {
      expect(egressProblems(entry)).toEqual([
        {
          path: 'egress.1',
          message: `"${entry}" is not a valid wildcard; write "https://*.<domain>" with a domain of at least two lowercase labels, for example "https://*.acme.com"`,
        },
      ]);
    },
  );

  it.each([
    'http://*.acme.com',
    'https://a.*.com',
    'https://*.acme.com/',
    'https://*.acme.com:8443',
    '*.acme.com',
    'https://*',
  ])('refuses misplaced wildcard %j', (entry) => {
    expect(egressProblems(entry)).toEqual([
      {
        path: 'egress.1',
        message: `"${entry}" is not a valid wildcard; only a leading subdomain wildcard over HTTPS is allowed, as in "https://*.acme.com"`,
      },
    ]);
  });

  it('accepts exact origins with ports, http origins and wildcards', () => {
    accept({
      slug: 'acme',
      egress: [
        'https://api.acme.com:8443',
        'http://localhost:3000',
        'http://127.0.0.1:8080',
        'https://*.acme.com',
        'https://*.eu.acme-cdn.io',
      ],
    });
  });
});

describe('type errors from the strict shape', () => {
  it.each<[string, Dict, string, unknown]>([
    [
      'action handler',
      { actions: { 'create-note': { description: 'x', input: z.object({}) } } },
      'actions.create-note.handler',
      'expected a function',
    ],
    [
      'webhook handler',
      { webhooks: [{ id: 'ping', payloadSchema: z.object({}) }] },
      'webhooks.0.handler',
      'expected a function',
    ],
    [
      'schedule handler',
      { schedules: [{ id: 'nightly', cron: '0 3 * * *' }] },
      'schedules.0.handler',
      'expected a function',
    ],
    [
      'onTokens',
      {
        oauth: { ...oauth('https://a.acme.com/a', 'https://a.acme.com/t'), onTokens: undefined },
        egress: ['https://a.acme.com'],
      },
      'oauth.onTokens',
      'expected a function',
    ],
    ['payloadSchema', { webhooks: [{ id: 'ping', handler }] }, 'webhooks.0.payloadSchema', SCHEMA_HINT],
    [
      'action input',
      { actions: { 'create-note': { description: 'x', handler } } },
      'actions.create-note.input',
      SCHEMA_HINT,
    ],
    [
      'oauth scopes',
      {
        oauth: {
          ...oauth('https://a.acme.com/a', 'https://a.acme.com/t'),
          provider: { authorizationUrl: 'https://a.acme.com/a', tokenUrl: 'https://a.acme.com/t' },
        },
        egress: ['https://a.acme.com'],
      },
      'oauth.provider.scopes',
      expect.stringMatching(/^is required; add an? array$/),
    ],
  ])('refuses a missing %s', (_what, extra, path, message) => {
    expect(refuse({ slug: 'acme', ...extra })).toEqual([{ path, message }]);
  });

  it.each<[string, Dict, string]>([
    [
      'action handler',
      { actions: { 'create-note': action({ handler: 'createNote' }) } },
      'actions.create-note.handler',
    ],
    ['webhook handler', { webhooks: [webhook('ping', { handler: {} })] }, 'webhooks.0.handler'],
    ['tool handler', { tools: [tool('sync', { handler: 1 })] }, 'tools.0.handler'],
    ['onActivate', { onActivate: 'activate' }, 'onActivate'],
  ])('refuses a %s that is not a function', (_what, extra, path) => {
    expect(refuse({ slug: 'acme', ...extra })).toEqual([{ path, message: 'expected a function' }]);
  });

  it.each<[string, Dict, string]>([
    [
      'action input',
      { actions: { 'create-note': action({ input: { title: 'string' } }) } },
      'actions.create-note.input',
    ],
    [
      'action output',
      { actions: { 'create-note': action({ output: { id: 'string' } }) } },
      'actions.create-note.output',
    ],
    [
      'payloadSchema',
      { webhooks: [webhook('ping', { payloadSchema: { parse: () => ({}) } })] },
      'webhooks.0.payloadSchema',
    ],
    ['tool input', { tools: [tool('sync', { input: { type: 'object' } })] }, 'tools.0.input'],
    ['storage value', { storage: { user: { config: 'z.object({})' } } }, 'storage.user.config'],
    [
      'Standard Schema of another version',
      { storage: { user: { config: { '~standard': { version: 2, validate: () => ({ value: 1 }) } } } } },
      'storage.user.config',
    ],
  ])('refuses a %s that is not a schema', (_what, extra, path) => {
    expect(refuse({ slug: 'acme', ...extra })).toEqual([{ path, message: SCHEMA_HINT }]);
  });

  it.each([
    ['zod 3', z3.object({ title: z3.string() }), z3.object({ id: z3.string() })],
    ['zod 4', z.object({ title: z.string() }), z.object({ id: z.string() })],
    [
      'a hand-written Standard Schema',
      { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } },
      { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } },
    ],
  ])(
    'accepts %s schemas for input, output, payloadSchema, tool input and storage values',
    (_lib, input, output) => {
      const definition = accept({
        slug: 'acme',
        tools: [tool('sync', { input })],
        actions: { 'create-note': action({ input, output }) },
        webhooks: [webhook('ping', { payloadSchema: input })],
        storage: { account: { settings: input }, user: { config: output } },
      });
      expect(definition.actions?.['create-note']?.input).toBe(input);
      expect(definition.storage?.user?.config).toBe(output);
    },
  );

  it.each<[string, Dict, string, string]>([
    [
      'scopes',
      {
        oauth: oauth('https://a.acme.com/a', 'https://a.acme.com/t', { scopes: 'read' }),
        egress: ['https://a.acme.com'],
      },
      'oauth.provider.scopes',
      'received string',
    ],
    [
      'pkce',
      {
        oauth: oauth('https://a.acme.com/a', 'https://a.acme.com/t', { pkce: 'yes' }),
        egress: ['https://a.acme.com'],
      },
      'oauth.provider.pkce',
      'received string',
    ],
    ['egress', { egress: 'https://api.acme.com' }, 'egress', 'received string'],
    ['tools', { tools: { sync: tool('sync') } }, 'tools', 'received object'],
    ['widgets', { components: { widgets: widget('acme-board') } }, 'components.widgets', 'received object'],
    ['actions', { actions: [action()] }, 'actions', 'received array'],
    [
      'widget name',
      { components: { widgets: [widget('acme-board', { name: 7 })] } },
      'components.widgets.0.name',
      'received number',
    ],
    [
      'isPinnable',
      { components: { widgets: [widget('acme-board', { isPinnable: 'true' })] } },
      'components.widgets.0.isPinnable',
      'received string',
    ],
    ['tool name', { tools: [tool(null)] }, 'tools.0.name', 'received null'],
    ['egress entry', { egress: [42] }, 'egress.0', 'received number'],
    [
      'action description',
      { actions: { 'create-note': action({ description: 1 }) } },
      'actions.create-note.description',
      'received number',
    ],
  ])('refuses %s of the wrong type with its path', (_what, extra, path, received) => {
    expect(refuse({ slug: 'acme', ...extra })).toEqual([
      { path, message: expect.stringContaining(received) },
    ]);
  });

  it('refuses an empty scope and empty secret names', () => {
    const input = {
      slug: 'acme',
      oauth: {
        ...oauth('https://a.acme.com/a', 'https://a.acme.com/t', { scopes: ['read', ''] }),
        credentials: { clientIdSecretName: '', clientSecretSecretName: 'S' },
      },
      egress: ['https://a.acme.com'],
    };
    expect(refuse(input)).toEqual([
      { path: 'oauth.provider.scopes.1', message: 'must not be empty' },
      { path: 'oauth.credentials.clientIdSecretName', message: 'must not be empty' },
    ]);
  });

  it.each<[string, Dict, string, string]>([
    [
      'effect',
      { effect: 'delete', sensitivity: 'low' },
      'proposes.tools.sync.effect',
      '"read"|"write"|"destructive"',
    ],
    [
      'sensitivity',
      { effect: 'read', sensitivity: 'critical' },
      'proposes.tools.sync.sensitivity',
      '"low"|"medium"|"high"',
    ],
  ])('refuses a bad %s enum', (_field, entry, path, options) => {
    expect(refuse({ slug: 'acme', tools: [tool('sync')], proposes: { tools: { sync: entry } } })).toEqual([
      { path, message: expect.stringContaining(options) },
    ]);
  });

  it('refuses a bad proposes.scope and tokenAuthMethod', () => {
    expect(refuse({ slug: 'acme', proposes: { scope: 'org' } })).toEqual([
      { path: 'proposes.scope', message: expect.stringContaining('"user"|"team"') },
    ]);
    const input = {
      slug: 'acme',
      oauth: oauth('https://a.acme.com/a', 'https://a.acme.com/t', { tokenAuthMethod: 'private_key_jwt' }),
      egress: ['https://a.acme.com'],
    };
    expect(refuse(input)).toEqual([
      {
        path: 'oauth.provider.tokenAuthMethod',
        message: expect.stringContaining('"client_secret_basic"|"client_secret_post"'),
      },
    ]);
  });

  it('refuses layout rectangles with negative or non-integer numbers', () => {
    const input = {
      slug: 'acme',
      components: { widgets: [widget('acme-board')] },
      layouts: {
        lg: { 'acme-board': { x: -1, y: 0, w: 2.5, h: 1 } },
        sm: { 'acme-board': { x: 0, y: 0, w: 1 } },
      },
    };
    expect(refuse(input)).toEqual([
      { path: 'layouts.lg.acme-board.x', message: expect.stringContaining('>=0') },
      { path: 'layouts.lg.acme-board.w', message: expect.stringContaining('received number') },
      { path: 'layouts.sm.acme-board.h', message: 'is required; add a number' },
    ]);
  });

  it('refuses a layouts entry naming an undeclared widget at layouts.<size>.<id>', () => {
    const input = {
      slug: 'acme',
      components: { widgets: [widget('acme-board')] },
      layouts: {
        lg: { 'acme-board': { x: 0, y: 0, w: 1, h: 1 } },
        md: { 'acme-ghost': { x: 0, y: 0, w: 1, h: 1 } },
      },
    };
    expect(refuse(input)).toEqual([
      {
        path: 'layouts.md.acme-ghost',
        message:
          'no widget with id "acme-ghost" is declared in components.widgets; declare it or remove this entry',
      },
    ]);
  });

  it('refuses a proposes.tools entry naming an undeclared tool at proposes.tools.<name>', () => {
    const input = {
      slug: 'acme',
      tools: [tool('search_notes')],
      proposes: {
        tools: {
          search_notes: { effect: 'read', sensitivity: 'low' },
          delete_all: { effect: 'destructive', sensitivity: 'high' },
        },
      },
    };
    expect(refuse(input)).toEqual([
      {
        path: 'proposes.tools.delete_all',
        message: 'no tool named "delete_all" is declared in tools; declare it or remove this entry',
      },
    ]);
  });
});

describe('all problems reported together', () => {
  const broken = () => ({
    slug: 'acme-notes',
    productId: 'prod_123',
    components: { widgets: [widget('Board')] },
    tools: [tool('Sync')],
    webhooks: [webhook('issue.created')],
    schedules: [schedule('nightly', '0 3 * *')],
    actions: { CreateNote: action() },
    oauth: oauth('https://auth.acme.com/authorize', 'https://api.acme.com/token'),
    egress: ['https://auth.acme.com', 'https://api.acme.com/'],
    storage: { account: { preferences: z.object({}) } },
  });

  it('reports exactly the problems of a definition with nine of them', () => {
    const problems = refuse(broken());
    expect(problems.map((problem) => problem.path).sort()).toEqual(
      [
        '(root)',
        'components.widgets.0.id',
        'tools.0.name',
        'webhooks.0.id',
        'schedules[nightly]',
        'actions.CreateNote',
        'egress.1',
        'oauth.provider.tokenUrl',
        'storage.account.preferences',
      ].sort(),
    );
    expect(problems).toContainEqual({
      path: '(root)',
      message: expect.stringContaining('unrecognized key "productId"'),
    });
    expect(problems).toContainEqual({
      path: 'oauth.provider.tokenUrl',
      message: 'origin https://api.acme.com is not covered by egress; add "https://api.acme.com" to egress',
    });
  });

  it('formats a header naming the slug and count, then one indented line per problem', () => {
    const result = parseDefinition(broken());
    if (result.ok) throw new Error('expected a failure');
    expect(result.slug).toBe('acme-notes');
    expect(result.error.problems).toBe(result.problems);
    const lines = result.error.message.split('\n');
    expect(lines[0]).toBe('Integration definition "acme-notes" is invalid (9 problems):');
    expect(lines.slice(1)).toEqual(result.problems.map((problem) => `  ${problem.path}: ${problem.message}`));
    expect(lines).toHaveLength(10);
  });

  it('formats a two-problem error exactly', () => {
    const result = parseDefinition({
      slug: 'acme',
      tools: [tool('Sync')],
      schedules: [schedule('nightly', '@daily')],
    });
    if (result.ok) throw new Error('expected a failure');
    expect(result.error.message).toBe(
      [
        'Integration definition "acme" is invalid (2 problems):',
        '  tools.0.name: tool name "Sync" is not lowercase snake_case starting with a letter; the model calls tools by this exact string (for example "sync")',
        `  schedules[nightly]: ${result.problems[1]?.message}`,
      ].join('\n'),
    );
    expect(result.problems[1]?.message).toMatch(/^invalid cron "@daily": /);
  });

  it('says "without a slug" when the slug is missing or not a string', () => {
    const missing = parseDefinition({});
    if (missing.ok) throw new Error('expected a failure');
    expect(missing.slug).toBeUndefined();
    expect(missing.error.message).toBe(
      'Integration definition without a slug is invalid (1 problem):\n  slug: is required; add a string',
    );
    const numeric = parseDefinition({ slug: 7 });
    if (numeric.ok) throw new Error('expected a failure');
    expect(numeric.error.message).toBe(
      'Integration definition without a slug is invalid (1 problem):\n  slug: expected a string, received number',
    );
  });

  it('says "without a slug" for an empty slug', () => {
    const result = parseDefinition({ slug: '' });
    if (result.ok) throw new Error('expected a failure');
    expect(result.slug).toBe('');
    expect(result.error.message).toBe(
      `Integration definition without a slug is invalid (1 problem):\n  slug: slug "" ${KEBAB_ADVICE}`,
    );
  });

  it.each([
    [null, 'null'],
    [[{ slug: 'acme' }], 'an array'],
    ['acme', 'string'],
    [42, 'number'],
    [undefined, 'undefined'],
  ])('refuses a non-object input %j with one (root) problem', (input, received) => {
    const result = parseDefinition(input);
    if (result.ok) throw new Error('expected a failure');
    expect(result.problems).toEqual([
      {
        path: '(root)',
        message: `expected a definition object, received ${received}; pass an object literal to defineIntegration()`,
      },
    ]);
    expect(result.slug).toBeUndefined();
    expect(result.error.message.split('\n')[0]).toBe(
      'Integration definition without a slug is invalid (1 problem):',
    );
  });
});

describe('IntegrationDefinitionError', () => {
  it('is an Error carrying name, code, slug and problems', () => {
    const problems = [
      { path: 'slug', message: 'first' },
      { path: '(root)', message: 'second' },
    ];
    const error = new IntegrationDefinitionError('acme', problems);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(IntegrationDefinitionError);
    expect(error.name).toBe('IntegrationDefinitionError');
    expect(error.code).toBe('INVALID_DEFINITION');
    expect(error.slug).toBe('acme');
    expect(error.problems).toEqual(problems);
    expect(error.message).toBe(
      'Integration definition "acme" is invalid (2 problems):\n  slug: first\n  (root): second',
    );
    expect(String(error)).toBe(`IntegrationDefinitionError: ${error.message}`);
  });

  it('keeps an undefined slug and formats the same text as formatDefinitionProblems', () => {
    const problems = [{ path: 'slug', message: 'is required; add a string' }];
    const error = new IntegrationDefinitionError(undefined, problems);
    expect(error.slug).toBeUndefined();
    expect(error.message).toBe(formatDefinitionProblems(undefined, problems));
    expect(formatDefinitionProblems('x', [])).toBe('Integration definition "x" is invalid (0 problems):');
  });

  it('is the error of a failed parse', () => {
    const result = parseDefinition({ slug: 'Acme' });
    if (result.ok) throw new Error('expected a failure');
    expect(result.error).toBeInstanceOf(IntegrationDefinitionError);
    expect(result.error.slug).toBe('Acme');
    expect(result.error.code).toBe('INVALID_DEFINITION');
  });
});
