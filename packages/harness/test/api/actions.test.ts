import type { HarnessRegistryEntry } from '@platform/harness';
import { describe, expect, it } from 'vitest';
import { harness, send } from './_helpers.js';
import { API, acmeDefinition } from './_integration.js';

const base: HarnessRegistryEntry = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: 'Notes',
  widgets: [],
  definition: acmeDefinition(),
};
const action = (name: string) => `/api/integrations/acme-notes/actions/${name}`;
const variant = (name: string) => ({ 'x-harness-variant': name });

describe('harness actions route, fixtures mode', () => {
  it('runs the handler and answers the host envelope', async () => {
    const { handlers } = await harness([base]);
    const answer = await send(handlers, 'POST', action('add-note'), { body: { title: 'First' } });
    expect(answer).toMatchObject({ status: 200, body: { ok: true, data: { id: 'n1', title: 'First' } } });
  });

  it('answers action_not_found (404), invalid_input with issues (400) for bad JSON and schema failures', async () => {
    const { handlers } = await harness([base]);
    const unknown = await send(handlers, 'POST', action('nope'), { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('action_not_found');
    expect(unknown.body.error.message).toContain('Declared actions: add-note');
    const notJson = await send(handlers, 'POST', action('add-note'), { body: '{title' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatchObject({ code: 'invalid_input', issues: [{ code: 'invalid_json' }] });
    const invalid = await send(handlers, 'POST', action('add-note'), { body: { title: '' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_input');
    expect(invalid.body.error.issues[0].path).toEqual(['title']);
  });

  it('answers Action failed. with devError for any throw, a PublicActionError too (under its 400)', async () => {
    const { handlers } = await harness([base]);
    const answer = await send(handlers, 'POST', action('fail-public'), { body: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'handler_error',
      message: 'Action failed.',
      devError: { message: 'Acme is down, try later.', stack: expect.stringContaining('PublicActionError') },
    });
  });

  it("answers a PublicActionError's own 4xx status as production does, still with Action failed.", async () => {
    const { handlers } = await harness([base]);
    const answer = await send(handlers, 'POST', action('connect-first'), { body: {} });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      ok: false,
      error: {
        code: 'handler_error',
        message: 'Action failed.',
        devError: { message: 'Connect Acme first.', stack: expect.stringContaining('PublicActionError') },
      },
    });
  });

  it('answers action_not_found for an entry without a definition', async () => {
    const { handlers } = await harness([
      { ...base, definition: undefined } as unknown as HarnessRegistryEntry,
    ]);
    const answer = await send(handlers, 'POST', action('add-note'), { body: { title: 'x' } });
    expect(answer.status).toBe(404);
    expect(answer.body.error.message).toContain('has no definition');
  });

  it('keeps one state per variant, seeded from triggerMocks, accumulating across calls', async () => {
    const entry: HarnessRegistryEntry = {
      ...base,
      triggerMocks: { storage: { account: { 'cache/notes': [{ id: 'seed', title: 'Seeded' }] } } },
    };
    const { handlers } = await harness([entry]);
    const add = (title: string, name: string) =>
      send(handlers, 'POST', action('add-note'), { body: { title }, headers: variant(name) });
    expect((await add('a', 'default')).body.data.id).toBe('n2');
    expect((await add('b', 'default')).body.data.id).toBe('n3');
    expect((await add('c', 'empty')).body.data.id).toBe('n2');
    const read = (name: string) =>
      send(handlers, 'GET', '/api/integrations/acme-notes/storage?keys=cache/notes', {
        headers: variant(name),
      });
    expect(
      (await read('default')).body.data['cache/notes'].map((note: { title: string }) => note.title),
    ).toEqual(['Seeded', 'a', 'b']);
    expect(
      (await read('empty')).body.data['cache/notes'].map((note: { title: string }) => note.title),
    ).toEqual(['Seeded', 'c']);
    expect((await read('error')).body.data['cache/notes']).toHaveLength(1);
    // Another handlers instance starts from the seed again: fixtures state is per instance.
    const fresh = await harness([entry]);
    expect(
      (await send(fresh.handlers, 'POST', action('add-note'), { body: { title: 'z' } })).body.data.id,
    ).toBe('n2');
  });

  it('runs actions as a user: ctx.storage.user works', async () => {
    const { handlers } = await harness([base]);
    const answer = await send(handlers, 'POST', action('set-sort'), { body: { sort: 'oldest' } });
    expect(answer.body).toEqual({ ok: true, data: { actor: 'user' } });
    const stored = await send(
      handlers,
      'GET',
      '/api/integrations/acme-notes/storage?scope=user&keys=preferences',
    );
    expect(stored.body).toEqual({ ok: true, data: { preferences: { sort: 'oldest' } } });
  });

  it('answers ctx.fetch from fetchHandlers first, then from the variant fixtures', async () => {
    const entry: HarnessRegistryEntry = {
      ...base,
      triggerMocks: {
        fetchHandlers: [{ match: 'GET /v1/notes', respond: () => Response.json({ from: 'fetchHandlers' }) }],
      },
      fixtures: {
        default: [
          { request: 'GET /v1/notes', response: { from: 'fixtures' } },
          { request: 'GET /v1/notes/:id', response: { from: 'fixtures', one: true } },
          { request: `GET ${API}/v1/empty`, status: 204 },
        ],
      },
    };
    const { handlers } = await harness([entry]);
    const fetchJson = async (url: string) =>
      (await send(handlers, 'POST', action('fetch-json'), { body: { url } })).body;
    expect(await fetchJson(`${API}/v1/notes`)).toEqual({
      ok: true,
      data: { status: 200, body: { from: 'fetchHandlers' } },
    });
    expect(await fetchJson(`${API}/v1/notes/42?x=1`)).toEqual({
      ok: true,
      data: { status: 200, body: { from: 'fixtures', one: true } },
    });
    expect(await fetchJson(`${API}/v1/empty`)).toEqual({ ok: true, data: { status: 204, body: null } });
  });

  it('refuses a request no fixture matches: NoRecordedResponseError in devError, one redacted log line with the literal to add', async () => {
    const { handlers, lines } = await harness([base]);
    const answer = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: `${API}/v1/notes?token=s3cret` },
    });
    expect(answer.status).toBe(500);
    expect(answer.body.error.devError.message).toContain(
      'No recorded response for GET https://api.acme.test/v1/notes?...',
    );
    const refusals = lines.filter((line) => line.includes('refused'));
    expect(refusals).toEqual([
      `[harness] refused GET ${API}/v1/notes?... (variant default): no fixture matches; Add { request: 'GET /v1/notes', response: {} } to "acme-notes" fixtures.default in harness.config.ts.`,
    ]);
    expect(lines.join('\n')).not.toContain('s3cret');
    // The page's request log gets the hop in x-harness-hops: redacted, with the literal to add.
    expect(JSON.parse(decodeURIComponent(answer.headers.get('x-harness-hops')!))).toEqual([
      {
        method: 'GET',
        url: `${API}/v1/notes?...`,
        answer: {
          kind: 'refused',
          message: expect.stringContaining('No recorded response for GET'),
          suggestion: "{ request: 'GET /v1/notes', response: {} }",
        },
      },
    ]);
  });

  it("lists the handler's answered hops in x-harness-hops with the fixture that answered each", async () => {
    const entry: HarnessRegistryEntry = {
      ...base,
      triggerMocks: {
        fetchHandlers: [{ match: 'GET /v1/notes', respond: () => Response.json({ from: 'fetchHandlers' }) }],
      },
      fixtures: { default: [{ request: 'GET /v1/notes/:id', response: { one: true } }] },
    };
    const { handlers } = await harness([entry]);
    const hopsOf = async (url: string) => {
      const answer = await send(handlers, 'POST', action('fetch-json'), { body: { url } });
      return JSON.parse(decodeURIComponent(answer.headers.get('x-harness-hops') ?? '[]'));
    };
    expect(await hopsOf(`${API}/v1/notes/42?x=1`)).toEqual([
      {
        method: 'GET',
        url: `${API}/v1/notes/42?...`,
        answer: { kind: 'fixture', fixture: 'GET /v1/notes/:id', status: 200 },
      },
    ]);
    expect(await hopsOf(`${API}/v1/notes`)).toEqual([
      {
        method: 'GET',
        url: `${API}/v1/notes`,
        answer: { kind: 'fixture', fixture: 'triggerMocks.fetchHandlers: GET /v1/notes', status: 200 },
      },
    ]);
  });

  it('refuses every request of an omitted variant, with no fallback to default', async () => {
    const entry: HarnessRegistryEntry = {
      ...base,
      fixtures: { default: [{ request: 'GET /v1/notes', response: [] }] },
    };
    const { handlers, lines } = await harness([entry]);
    const run = (name: string) =>
      send(handlers, 'POST', action('fetch-json'), {
        body: { url: `${API}/v1/notes` },
        headers: variant(name),
      });
    expect((await run('default')).status).toBe(200);
    expect((await run('empty')).status).toBe(500);
    expect((await run('error')).status).toBe(500);
    expect(lines.filter((line) => line.includes('refused'))).toEqual([
      expect.stringContaining('(variant empty)'),
      expect.stringContaining('(variant error)'),
    ]);
  });

  it('skips host-route /api fixtures on the action path', async () => {
    const entry: HarnessRegistryEntry = {
      ...base,
      definition: acmeDefinition([API, 'http://localhost']),
      fixtures: {
        default: [
          { request: 'GET /api/integrations/acme-notes/storage', response: { ok: true, data: {} } },
          { request: `GET ${API}/v1/notes`, response: ['vendor'] },
        ],
      },
    };
    const { handlers, lines } = await harness([entry]);
    const vendor = await send(handlers, 'POST', action('fetch-json'), { body: { url: `${API}/v1/notes` } });
    expect(vendor.body).toEqual({ ok: true, data: { status: 200, body: ['vendor'] } });
    const hostRoute = await send(handlers, 'POST', action('fetch-json'), {
      body: { url: 'http://localhost/api/integrations/acme-notes/storage' },
    });
    expect(hostRoute.status).toBe(500);
    expect(hostRoute.body.error.devError.message).toContain('No recorded response');
    expect(lines.filter((line) => line.includes('refused'))).toHaveLength(1);
  });

  it('fails the call with the fixture named when a fixture is malformed', async () => {
    const entry: HarnessRegistryEntry = {
      ...base,
      definition: acmeDefinition([API, 'https://two.acme.test']),
      fixtures: { default: [{ request: 'GET /v1/notes', response: [] }] },
    };
    const { handlers } = await harness([entry]);
    const answer = await send(handlers, 'POST', action('fetch-json'), { body: { url: `${API}/v1/notes` } });
    expect(answer.status).toBe(500);
    expect(answer.body.error.devError.message).toContain('"acme-notes" fixtures.default[0]');
  });
});
