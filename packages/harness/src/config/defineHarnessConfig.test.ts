import {
  asHarnessDefinition,
  checkHarnessConfig,
  defineHarnessConfig,
  HARNESS_ERROR_CODES,
  HarnessConfigError,
  type HarnessConfigProblem,
  type HarnessRegistryEntry,
} from '@platform/harness';
import { defineIntegration } from '@platform/sdk/integration';
import { memo } from 'react';
import { describe, expect, it } from 'vitest';

const Board = () => null;
const MemoBoard = memo(Board);

const valid = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: 'Notes from Acme.',
  widgets: [
    { id: 'board', title: 'Board', component: Board, width: 'full' },
    { id: 'list.v2', title: 'List', component: MemoBoard, isPinnable: true },
  ],
  fixtures: {
    default: [
      { request: 'GET /v1/notes', response: [{ id: 'n1' }] },
      { request: 'delete https://api.acme.com/v1/notes/:id', status: 204, headers: { 'x-trace': '1' } },
    ],
    empty: [],
  },
  live: { egress: ['https://api.acme.com'], default: 'live', seeds: [{ queryKey: ['me'], data: null }] },
  oauth: {
    connected: { error: false },
    setup: { consoleUrl: 'https://developer.acme.com', notes: ['Use a test app.'] },
  },
} satisfies HarnessRegistryEntry;

// The config arrives from partner code, often JavaScript: the run-time checks see what the types cannot.
function problemsOf(entries: unknown): HarnessConfigProblem[] {
  try {
    defineHarnessConfig(entries as readonly HarnessRegistryEntry[]);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessConfigError);
    const configError = error as HarnessConfigError;
    expect(configError.code).toBe(HARNESS_ERROR_CODES.config);
    expect(checkHarnessConfig(entries)).toEqual(configError.problems);
    return [...configError.problems];
  }
  throw new Error('expected a HarnessConfigError');
}

const fields = (problems: readonly HarnessConfigProblem[]) => problems.map((p) => `${p.entry} ${p.field}`);
const find = (problems: readonly HarnessConfigProblem[], entry: string, field: string) => {
  const problem = problems.find((p) => p.entry === entry && p.field === field);
  expect(problem, `${entry} ${field} in ${fields(problems).join(' | ')}`).toBeDefined();
  return problem?.message ?? '';
};

describe('defineHarnessConfig', () => {
  it('returns the entries as given, frozen', () => {
    const config = defineHarnessConfig([valid]);
    expect(config[0]).toBe(valid);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config[0])).toBe(true);
    expect(Object.isFrozen(config[0]?.widgets)).toBe(true);
    expect(Object.isFrozen(config[0]?.widgets[0])).toBe(true);
    expect(Object.isFrozen(config[0]?.fixtures?.default)).toBe(true);
    expect(checkHarnessConfig([valid])).toEqual([]);
  });

  it('accepts an entry with a definition and an empty widget list', () => {
    const definition = defineIntegration({ slug: 'acme-notes', egress: ['https://api.acme.com'] });
    expect(() =>
      defineHarnessConfig([
        {
          slug: 'acme-notes',
          name: 'Acme',
          description: '',
          widgets: [],
          definition: asHarnessDefinition(definition),
        },
      ]),
    ).not.toThrow();
  });

  it('reports every problem of every entry together, one line each, with the fix', () => {
    const problems = problemsOf([
      { ...valid, slug: '-acme' },
      { ...valid, slug: 'acme notes', widgets: [{ id: 'a b', title: 'A', component: Board }] },
      { ...valid, slug: 'dup' },
      { ...valid, slug: 'dup' },
    ]);
    expect(fields(problems)).toEqual([
      '-acme slug',
      'acme notes slug',
      'acme notes widgets[0].id',
      'dup slug',
    ]);
    let message = '';
    try {
      defineHarnessConfig([
        { ...valid, slug: '-acme' },
        { ...valid, slug: 'api' },
      ] as never);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^harness\.config\.ts has 2 problems:\n {2}-acme slug: "-acme" is not a valid harness slug/,
    );
    expect(message).toContain('\n  api slug: "api" is reserved');
  });

  it('checks the slug grammar: letter or digit first, then letters, digits, dot, underscore, hyphen', () => {
    for (const slug of ['acme', 'Acme.Notes_2', '9lives', 'a-b']) {
      expect(checkHarnessConfig([{ ...valid, slug }]), slug).toEqual([]);
    }
    for (const slug of ['_acme', '.acme', 'acme/notes', 'acme notes', 'acmé', 'acme?x']) {
      expect(fields(problemsOf([{ ...valid, slug }])), slug).toEqual([`${slug} slug`]);
    }
    expect(find(problemsOf([{ ...valid, slug: 'acme/notes' }]), 'acme/notes', 'slug')).toContain(
      '"acme-notes"',
    );
    expect(fields(problemsOf([{ ...valid, slug: '' }]))).toEqual(['[0] slug']);
    expect(fields(problemsOf([{ ...valid, slug: undefined }]))).toEqual(['[0] slug']);
  });

  it('refuses duplicate slugs across entries, naming both', () => {
    const problems = problemsOf([valid, { ...valid, name: 'Other' }]);
    expect(problems).toEqual([
      { entry: 'acme-notes', field: 'slug', message: expect.stringContaining('entries [0] and [1]') },
    ]);
  });

  it('refuses duplicate widget ids within an entry, and ids not usable as a URL segment', () => {
    const problems = problemsOf([
      {
        ...valid,
        widgets: [
          { id: 'board', title: 'A', component: Board },
          { id: 'board', title: 'B', component: Board },
          { id: 'x/y', title: 'C', component: Board },
          { id: '..', title: 'D', component: Board },
          { id: 'a%20b', title: 'E', component: Board },
        ],
      },
    ]);
    expect(fields(problems)).toEqual([
      'acme-notes widgets[1].id',
      'acme-notes widgets[2].id',
      'acme-notes widgets[3].id',
      'acme-notes widgets[4].id',
    ]);
    expect(problems[0]?.message).toContain('duplicate widget id "board" (also widgets[0])');
    expect(problems[1]?.message).toContain('not usable as a URL segment');
    // The same id in two entries is fine: widget URLs are per entry.
    expect(checkHarnessConfig([valid, { ...valid, slug: 'other' }])).toEqual([]);
  });

  it('names the allowed keys of an entry, widget, fixture, seed, live and oauth block', () => {
    const problems = problemsOf([
      {
        ...valid,
        fixture: [],
        widgets: [
          {
            id: 'w',
            title: 'W',
            component: Board,
            seeds: { default: [{ queryKey: ['a'], data: 1, value: 2 }] },
            size: 'l',
          },
        ],
        fixtures: { default: [{ request: 'GET /x', body: 'hi' }] },
        live: { egress: [], mode: 'live' },
        oauth: { connected: true, setup: { consoleURL: 'https://x.com' }, scopes: [] },
        triggerMocks: {
          storage: { team: {} },
          fetchHandlers: [{ match: 'GET /x', respond: () => new Response(), status: 1 }],
        },
      },
    ]);
    expect(fields(problems)).toEqual([
      'acme-notes fixture',
      'acme-notes widgets[0].size',
      'acme-notes widgets[0].seeds.default[0].value',
      'acme-notes fixtures.default[0].body',
      'acme-notes triggerMocks.storage.team',
      'acme-notes triggerMocks.fetchHandlers[0].status',
      'acme-notes live.mode',
      'acme-notes oauth.scopes',
      'acme-notes oauth.setup.consoleURL',
    ]);
    expect(find(problems, 'acme-notes', 'fixture')).toBe(
      'unknown key "fixture"; remove it or use one of the allowed keys: slug, name, description, widgets, fixtures, tile, activationForm, definition, triggerMocks, live, oauth. Did you mean "fixtures"?',
    );
    expect(find(problems, 'acme-notes', 'widgets[0].size')).toContain(
      'id, title, component, width, isCollapsible, isPinnable, aiFooterEnabled, seeds',
    );
    expect(find(problems, 'acme-notes', 'fixtures.default[0].body')).toContain(
      'request, response, status, headers',
    );
    expect(find(problems, 'acme-notes', 'widgets[0].seeds.default[0].value')).toContain(
      'queryKey, data, error',
    );
    expect(find(problems, 'acme-notes', 'live.mode')).toContain('seeds, default, egress');
    expect(find(problems, 'acme-notes', 'oauth.scopes')).toContain('connected, setup');
    expect(find(problems, 'acme-notes', 'oauth.setup.consoleURL')).toContain('Did you mean "consoleUrl"?');
  });

  it('checks required fields and their types', () => {
    const problems = problemsOf([
      {
        slug: 'a',
        name: '',
        widgets: [{ id: 'w', component: 'Board' }, { title: 'T', component: Board }, 'board'],
      },
      {
        slug: 'b',
        name: 3,
        description: null,
        widgets: {},
        tile: 'Tile',
        activationForm: {},
        definition: 'acme',
      },
      { slug: 'c', name: 'C', description: 'C' },
      null,
    ]);
    expect(problems.map((p) => `${p.entry} ${p.field}: ${p.message.split(';')[0]}`)).toEqual([
      'a name: must not be empty',
      'a description: is required',
      'a widgets[0].title: is required',
      'a widgets[0].component: must be a React component (a function, or a memo/forwardRef/lazy object), not a string ("Board").',
      'a widgets[1].id: is required',
      'a widgets[2]: must be a widget object { id, title, component }, not a string ("board").',
      'b name: must be a string, not a number (3)',
      'b description: must be a string, not null',
      'b widgets: must be an array, not an object',
      'b tile: must be a React component, not a string ("Tile")',
      'b activationForm: must be a React component, not an object',
      'b definition: must be an integration definition, not a string ("acme")',
      'c widgets: is required',
      '[3] (entry): must be an object { slug, name, description, widgets }, not null.',
    ]);
    expect(problemsOf('acme')).toEqual([
      { entry: '(config)', field: '(root)', message: expect.stringContaining('must be an array of entries') },
    ]);
  });

  it('checks widget width, chrome flags and component', () => {
    const problems = problemsOf([
      {
        ...valid,
        widgets: [
          { id: 'w', title: 'W', component: Board, width: 'wide', isPinnable: 'yes', aiFooterEnabled: 1 },
        ],
      },
    ]);
    expect(fields(problems)).toEqual([
      'acme-notes widgets[0].width',
      'acme-notes widgets[0].isPinnable',
      'acme-notes widgets[0].aiFooterEnabled',
    ]);
    expect(problems[0]?.message).toContain('"half" or "full"');
  });

  it('refuses live.egress together with definition, and checks egress origins', () => {
    const definition = asHarnessDefinition(
      defineIntegration({ slug: 'acme-notes', egress: ['https://api.acme.com'] }),
    );
    const withDefinition = problemsOf([{ ...valid, definition, live: { egress: ['https://api.acme.com'] } }]);
    expect(withDefinition).toEqual([
      {
        entry: 'acme-notes',
        field: 'live.egress',
        message: expect.stringContaining('must not be set when definition is set'),
      },
    ]);
    const malformed = problemsOf([
      { ...valid, live: { egress: ['https://api.acme.com/', 'ftp://x.com', 3], default: true } },
    ]);
    expect(fields(malformed)).toEqual([
      'acme-notes live.default',
      'acme-notes live.egress[0]',
      'acme-notes live.egress[1]',
      'acme-notes live.egress[2]',
    ]);
    expect(malformed[1]?.message).toContain('write "https://api.acme.com"');
  });

  it('knows only the default, empty and error variants (fixtures, seeds, oauth.connected)', () => {
    const problems = problemsOf([
      {
        ...valid,
        fixtures: { default: [], staging: [], Empty: [] },
        widgets: [{ id: 'w', title: 'W', component: Board, seeds: { loading: [] } }],
        oauth: { connected: { default: true, disconnected: false, error: 'no' } },
      },
    ]);
    expect(fields(problems)).toEqual([
      'acme-notes widgets[0].seeds.loading',
      'acme-notes fixtures.staging',
      'acme-notes fixtures.Empty',
      'acme-notes oauth.connected.disconnected',
      'acme-notes oauth.connected.error',
    ]);
    expect(problems[0]?.message).toBe(
      'unknown variant "loading"; the toolbar\'s variants are default, empty, error. Rename it to one of them.',
    );
    expect(fields(problemsOf([{ ...valid, fixtures: [] }]))).toEqual(['acme-notes fixtures']);
  });

  it('checks fixture fields: request with a valid method, status 200-599, headers as a string map', () => {
    const problems = problemsOf([
      {
        ...valid,
        fixtures: {
          default: [
            { request: 'FETCH /v1/notes' },
            { request: '/v1/notes' },
            { response: {} },
            { request: 'GET /v1/*/x' },
            { request: 'GET /v1/notes', status: 700 },
            { request: 'GET /v1/notes', status: 200.5 },
            { request: 'GET /v1/notes', status: '200' },
            { request: 'GET /v1/notes', status: 101 },
            { request: 'GET /v1/notes', headers: { 'x-count': 1, 'bad header': 'x' } },
            { request: 'GET /v1/notes', headers: 'x' },
            'GET /v1/notes',
          ],
          error: { request: 'GET /v1/notes' },
        },
      },
    ]);
    expect(fields(problems)).toEqual([
      'acme-notes fixtures.default[0].request',
      'acme-notes fixtures.default[1].request',
      'acme-notes fixtures.default[2].request',
      'acme-notes fixtures.default[3].request',
      'acme-notes fixtures.default[4].status',
      'acme-notes fixtures.default[5].status',
      'acme-notes fixtures.default[6].status',
      'acme-notes fixtures.default[7].status',
      'acme-notes fixtures.default[8].headers.x-count',
      'acme-notes fixtures.default[8].headers.bad header',
      'acme-notes fixtures.default[9].headers',
      'acme-notes fixtures.default[10]',
      'acme-notes fixtures.error',
    ]);
    expect(problems[0]?.message).toContain(
      'unknown method "FETCH"; expected one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    );
    expect(problems[1]?.message).toContain('it has no method; write e.g. "GET /v1/notes"');
    expect(problems[2]?.message).toMatch(/^is required; write "<METHOD> <target>"/);
    expect(problems[3]?.message).toContain('"*" is only allowed as the last path segment');
    expect(problems[4]?.message).toContain('integer HTTP status from 200 to 599');
  });

  it('does not resolve path-only fixtures here: that throws while the surface renders', () => {
    // No egress at all, and several origins: both only fail in compileFixtures.
    expect(
      checkHarnessConfig([{ ...valid, live: {}, fixtures: { default: [{ request: 'GET /v1/notes' }] } }]),
    ).toEqual([]);
    expect(
      checkHarnessConfig([
        {
          ...valid,
          live: { egress: ['https://a.com', 'https://b.com'] },
          fixtures: { default: [{ request: 'GET /x' }] },
        },
      ]),
    ).toEqual([]);
  });

  it('checks seeds: queryKey array, data or error, one per key', () => {
    const problems = problemsOf([
      {
        ...valid,
        widgets: [
          {
            id: 'w',
            title: 'W',
            component: Board,
            seeds: {
              default: [
                { queryKey: ['notes', { page: 1, size: 2 }], data: [] },
                { queryKey: ['notes', { size: 2, page: 1 }], error: 'boom' },
                { queryKey: 'notes', data: [] },
                { queryKey: ['me'] },
                { queryKey: ['ok'], data: null, error: new Error('wins') },
              ],
              error: { queryKey: ['notes'], error: 'x' },
            },
          },
        ],
        live: { seeds: [{ data: 1 }] },
      },
    ]);
    expect(fields(problems)).toEqual([
      'acme-notes widgets[0].seeds.default[1].queryKey',
      'acme-notes widgets[0].seeds.default[2].queryKey',
      'acme-notes widgets[0].seeds.default[3]',
      'acme-notes widgets[0].seeds.error',
      'acme-notes live.seeds[0].queryKey',
    ]);
    expect(problems[0]?.message).toContain('duplicates the queryKey of widgets[0].seeds.default[0]');
    expect(problems[2]?.message).toContain('has neither data nor error');
  });

  it('checks the oauth setup and triggerMocks shapes', () => {
    const problems = problemsOf([
      {
        ...valid,
        oauth: { connected: 'yes', setup: { consoleUrl: 'developer.acme.com', consoleLabel: 1, notes: 'x' } },
        triggerMocks: {
          secrets: { account: { token: 1 } },
          fetchHandlers: [{ match: 'GET', respond: {} }, 'x'],
        },
      },
    ]);
    expect(fields(problems)).toEqual([
      'acme-notes triggerMocks.secrets.account.token',
      'acme-notes triggerMocks.fetchHandlers[0].match',
      'acme-notes triggerMocks.fetchHandlers[0].respond',
      'acme-notes triggerMocks.fetchHandlers[1]',
      'acme-notes oauth.connected',
      'acme-notes oauth.setup.consoleUrl',
      'acme-notes oauth.setup.consoleLabel',
      'acme-notes oauth.setup.notes',
    ]);
  });
});
