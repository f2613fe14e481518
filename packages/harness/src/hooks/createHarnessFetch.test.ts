import {
  asHarnessDefinition,
  HarnessConfigError,
  type HarnessRegistryEntry,
  LiveActionNotConfirmedError,
  NoRecordedResponseError,
} from '@platform/harness';
import {
  createHarnessFetch,
  type HarnessRequestRecord,
  type HarnessToolbarState,
} from '@platform/harness/hooks';
import type { FetchFunction } from '@platform/sdk/hooks';
import { defineIntegration, EgressDeniedError } from '@platform/sdk/integration';
import { oauthStatusResponseSchema } from '@platform/wire';
import { beforeEach, describe, expect, it, type Mock, type MockInstance, vi } from 'vitest';

const PAGE = 'http://127.0.0.1:5173';
const API = 'https://api.acme.com';
const OWN = '/api/integrations/acme-notes';

const definition = asHarnessDefinition(
  defineIntegration({ slug: 'acme-notes', egress: [API, 'https://*.files.acme.com'] }),
);

const entry: HarnessRegistryEntry = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: '',
  widgets: [],
  definition,
  live: { seeds: [] },
  oauth: { connected: { error: false } },
  fixtures: {
    default: [
      { request: `GET ${API}/v1/notes`, response: [{ id: 'n1' }] },
      {
        request: `GET ${OWN}/storage?keys=settings`,
        response: { ok: true, data: { settings: { dark: true } } },
      },
      { request: 'GET /api/platform/me', response: { ok: true, data: { id: 'u1' } } },
    ],
    error: [
      { request: `GET ${API}/v1/notes`, response: { error: 'down' }, status: 503 },
      {
        request: `GET ${OWN}/oauth/status`,
        response: { ok: true, data: { connected: true, scope: 'notes' } },
      },
    ],
  },
};

let warn: MockInstance<(...args: unknown[]) => void>;
let server: Mock<FetchFunction>;

beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  server = vi.fn<FetchFunction>(async () => new Response('from the server'));
});

function harnessFetch(
  toolbar: Partial<HarnessToolbarState>,
  options: { entry?: HarnessRegistryEntry; confirm?: (message: string) => boolean; storage?: Storage } = {},
) {
  return createHarnessFetch({
    entry: options.entry ?? entry,
    toolbar: { variant: 'default', mode: 'fixtures', record: false, ...toolbar },
    pageOrigin: PAGE,
    fetch: server,
    confirm: options.confirm ?? (() => true),
    storage: options.storage ?? memoryStorage(),
  });
}

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  } as Storage;
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const sent = (call = 0) => server.mock.calls[call]?.[0] as Request;
const toolbarHeaders = (request: Request) => ({
  variant: request.headers.get('x-harness-variant'),
  mode: request.headers.get('x-harness-mode'),
  record: request.headers.get('x-harness-record'),
});

describe('createHarnessFetch: same-origin /api traffic', () => {
  it('answers same-origin /api requests from the variant’s fixtures, in fixtures mode', async () => {
    const fetch = harnessFetch({});
    const storage = await fetch(`${OWN}/storage?accountId=a1&keys=settings`);
    expect(await storage.json()).toEqual({ ok: true, data: { settings: { dark: true } } });
    expect(await (await fetch(`${PAGE}/api/platform/me`)).json()).toEqual({ ok: true, data: { id: 'u1' } });
    expect(server).not.toHaveBeenCalled();
  });

  it('answers other same-origin /api requests from fixtures in live mode too', async () => {
    const fetch = harnessFetch({ mode: 'live' });
    expect(await (await fetch('/api/platform/me')).json()).toEqual({ ok: true, data: { id: 'u1' } });
    const error = await rejectionOf(fetch('/api/integrations/acme-crm/storage'));
    expect(error).toBeInstanceOf(NoRecordedResponseError);
    expect(server).not.toHaveBeenCalled();
  });

  it('refuses an unmatched same-origin /api request with one console line: path literal, query redacted', async () => {
    const error = await rejectionOf(
      harnessFetch({}).call(null, `${OWN}/storage?accountId=a1&keys=secret-key`),
    );
    expect(error).toBeInstanceOf(NoRecordedResponseError);
    expect((error as NoRecordedResponseError).url).toBe(`${PAGE}${OWN}/storage?...`);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      `[harness] refused GET ${PAGE}${OWN}/storage?... (variant default): no fixture matches; ` +
        `Add { request: 'GET ${OWN}/storage', response: {} } to "acme-notes" fixtures.default in harness.config.ts.`,
    );
    expect(server).not.toHaveBeenCalled();
  });

  it('passes the active integration’s own routes to the server in live mode, with the toolbar headers', async () => {
    const response = await harnessFetch({ mode: 'live', variant: 'empty', record: true })(
      `${OWN}/storage?keys=x`,
    );
    expect(await response.text()).toBe('from the server');
    expect(sent().url).toBe(`${PAGE}${OWN}/storage?keys=x`);
    expect(toolbarHeaders(sent())).toEqual({ variant: 'empty', mode: 'live', record: '1' });
  });

  it('passes local-setup through in both modes', async () => {
    await harnessFetch({})(`${OWN}/local-setup`, { method: 'POST', body: '{}' });
    await harnessFetch({ mode: 'live' })(`${OWN}/local-setup/secrets`);
    expect(server).toHaveBeenCalledTimes(2);
    expect(toolbarHeaders(sent(0))).toEqual({ variant: 'default', mode: 'fixtures', record: null });
    expect(toolbarHeaders(sent(1))).toEqual({ variant: 'default', mode: 'live', record: null });
  });

  it('passes actions through in fixtures mode without asking', async () => {
    const confirm = vi.fn(() => false);
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Hi"}' };
    await harnessFetch({}, { confirm })(`${OWN}/actions/create-note?accountId=a1`, init);
    expect(confirm).not.toHaveBeenCalled();
    expect(sent().method).toBe('POST');
    expect(sent().headers.get('content-type')).toBe('application/json');
    expect(await sent().text()).toBe('{"title":"Hi"}');
    expect(toolbarHeaders(sent())).toEqual({ variant: 'default', mode: 'fixtures', record: null });
  });

  it('asks before a live action once per session; declining sends nothing', async () => {
    const storage = memoryStorage();
    const declined = vi.fn(() => false);
    const error = await rejectionOf(
      harnessFetch({ mode: 'live' }, { confirm: declined, storage })(`${OWN}/actions/create-note`, {
        method: 'POST',
      }),
    );
    expect(error).toBeInstanceOf(LiveActionNotConfirmedError);
    expect(error).toMatchObject({ slug: 'acme-notes', action: 'create-note' });
    expect(server).not.toHaveBeenCalled();

    const accepted = vi.fn(() => true);
    const fetch = harnessFetch({ mode: 'live' }, { confirm: accepted, storage });
    await fetch(`${OWN}/actions/create-note`, { method: 'POST' });
    await fetch(`${OWN}/actions/delete%2Dnote`, { method: 'POST' });
    expect(accepted).toHaveBeenCalledTimes(1);
    expect(server).toHaveBeenCalledTimes(2);
    expect(toolbarHeaders(sent(1)).mode).toBe('live');
  });

  it('passes a Request input through with its method, headers and body, plus the toolbar headers', async () => {
    const request = new Request(`${PAGE}${OWN}/actions/create-note`, {
      method: 'POST',
      headers: { 'x-trace': 't1' },
      body: 'payload',
    });
    await harnessFetch({ variant: 'error' })(request);
    expect(sent().headers.get('x-trace')).toBe('t1');
    expect(await sent().text()).toBe('payload');
    expect(toolbarHeaders(sent()).variant).toBe('error');
  });

  it('answers the OAuth status route in fixtures mode from oauth.connected when no fixture does', async () => {
    const status = async (variant: HarnessToolbarState['variant']) =>
      (await harnessFetch({ variant })(`${OWN}/oauth/status?accountId=a1`)).json();
    // The host's wire shape: a connection says since when (a fixture one, since the answer).
    const connectedNow = { ok: true, data: { connected: true, connectedAt: expect.any(String) } };
    expect(await status('default')).toEqual(connectedNow);
    expect(await status('empty')).toEqual(connectedNow);
    expect(oauthStatusResponseSchema.parse((await status('default')).data)).toMatchObject({
      connected: true,
    });
    // The variant's own fixture wins over oauth.connected (which says false for error).
    expect(await status('error')).toEqual({ ok: true, data: { connected: true, scope: 'notes' } });
    const { oauth: _oauth, ...withoutOAuth } = entry;
    const fetch = harnessFetch(
      { variant: 'error' },
      { entry: { ...withoutOAuth, oauth: { connected: false } } },
    );
    expect(await (await fetch(`${OWN}/oauth/status`)).json()).toEqual({
      ok: true,
      data: { connected: true, scope: 'notes' },
    });
    expect(server).not.toHaveBeenCalled();
  });

  it('passes the page’s own non-/api requests through', async () => {
    await harnessFetch({})('/assets/logo.svg');
    expect(sent().url).toBe(`${PAGE}/assets/logo.svg`);
  });
});

describe('createHarnessFetch: vendor origins', () => {
  it('answers vendor requests from the variant’s egress fixtures in fixtures mode, never the network', async () => {
    const ok = await harnessFetch({})(`${API}/v1/notes?limit=5`);
    expect(await ok.json()).toEqual([{ id: 'n1' }]);
    const down = await harnessFetch({ variant: 'error' })(`${API}/v1/notes`);
    expect(down.status).toBe(503);
    expect(server).not.toHaveBeenCalled();
  });

  it('refuses an unmatched vendor request with the literal to add, and never sends it', async () => {
    const error = await rejectionOf(harnessFetch({})(`${API}/v1/tags?token=t`));
    expect(error).toBeInstanceOf(NoRecordedResponseError);
    expect(warn).toHaveBeenCalledExactlyOnceWith(
      `[harness] refused GET https://api.acme.com/v1/tags?... (variant default): no fixture matches; ` +
        `Add { request: 'GET https://api.acme.com/v1/tags', response: {} } to "acme-notes" fixtures.default in harness.config.ts.`,
    );
    expect(server).not.toHaveBeenCalled();
  });

  it('refuses a URL with credentials as fetch does, without quoting them', async () => {
    const error = await rejectionOf(harnessFetch({})('https://user:secret@api.acme.com/v1/tags?token=t'));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('https://api.acme.com/v1/tags?...');
    expect((error as Error).message).not.toMatch(/secret|token=t/);
    expect(server).not.toHaveBeenCalled();
  });

  it('refuses everything under an omitted variant: no fallback to default', async () => {
    const fetch = harnessFetch({ variant: 'empty' });
    expect(await rejectionOf(fetch(`${API}/v1/notes`))).toBeInstanceOf(NoRecordedResponseError);
    expect(await rejectionOf(fetch('/api/platform/me'))).toBeInstanceOf(NoRecordedResponseError);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('fetches origins within the egress in live mode, without the toolbar headers', async () => {
    const fetch = harnessFetch({ mode: 'live', record: true });
    await fetch(`${API}/v1/notes`);
    await fetch('https://eu.files.acme.com/f/1');
    expect(server).toHaveBeenCalledTimes(2);
    expect(sent(0).url).toBe(`${API}/v1/notes`);
    expect(toolbarHeaders(sent(0))).toEqual({ variant: null, mode: null, record: null });
  });

  it('refuses origins outside the egress in live mode with EgressDeniedError and a console line', async () => {
    const error = await rejectionOf(harnessFetch({ mode: 'live' })('https://evil.example/steal?token=t'));
    expect(error).toBeInstanceOf(EgressDeniedError);
    expect(error).toMatchObject({ origin: 'https://evil.example' });
    expect((error as Error).message).toBe(
      "Live API fetch to https://evil.example/steal?... refused: https://evil.example is not in this integration's egress; add it to egress in the definition. " +
        'The request was not sent; switch the toolbar to Fixtures to answer it from fixtures.',
    );
    expect((error as Error).message).not.toContain('token=t');
    expect(warn).toHaveBeenCalledExactlyOnceWith(`[harness] ${(error as Error).message}`);
    expect(server).not.toHaveBeenCalled();
  });

  it('uses live.egress for an entry without a definition, and says so when refusing', async () => {
    const { definition: _definition, ...rest } = entry;
    const liveOnly: HarnessRegistryEntry = { ...rest, fixtures: {}, live: { egress: [API] } };
    const fetch = harnessFetch({ mode: 'live' }, { entry: liveOnly });
    await fetch(`${API}/v1/notes`);
    expect(server).toHaveBeenCalledTimes(1);
    const error = await rejectionOf(fetch('https://eu.files.acme.com/f/1'));
    expect((error as Error).message).toContain('(this entry has no definition: add it to live.egress)');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('createHarnessFetch: toolbar and entry', () => {
  it('stays on fixtures when the entry has no live block, whatever the toolbar says', async () => {
    const { live: _live, ...fixturesOnly } = entry;
    const fetch = harnessFetch({ mode: 'live', record: true }, { entry: fixturesOnly });
    expect(await (await fetch(`${API}/v1/notes`)).json()).toEqual([{ id: 'n1' }]);
    await fetch(`${OWN}/actions/create-note`, { method: 'POST' });
    expect(toolbarHeaders(sent())).toEqual({ variant: 'default', mode: 'fixtures', record: null });
  });

  it('follows a toolbar read at call time', async () => {
    let state: HarnessToolbarState = { variant: 'default', mode: 'fixtures', record: false };
    const fetch = createHarnessFetch({
      entry,
      toolbar: () => state,
      pageOrigin: PAGE,
      fetch: server,
    });
    expect((await fetch(`${API}/v1/notes`)).status).toBe(200);
    state = { ...state, variant: 'error' };
    expect((await fetch(`${API}/v1/notes`)).status).toBe(503);
  });

  it('throws when made for a variant with a path-only fixture and no single egress origin', () => {
    const broken: HarnessRegistryEntry = {
      slug: 'bare',
      name: 'Bare',
      description: '',
      widgets: [],
      fixtures: { empty: [{ request: 'GET /v1/x' }] },
    };
    expect(() => harnessFetch({}, { entry: broken })).not.toThrow();
    expect(() => harnessFetch({ variant: 'empty' }, { entry: broken })).toThrow(
      /"bare" fixtures\.empty\[0\]: .*needs exactly one egress origin/,
    );
    expect(() => harnessFetch({ variant: 'empty' }, { entry: broken })).not.toThrow(HarnessConfigError);
  });
});

describe('createHarnessFetch: onRequest', () => {
  it('reports each request once: the fixture that answered, the server, the network, a refusal with its literal', async () => {
    const records: HarnessRequestRecord[] = [];
    const make = (mode: 'fixtures' | 'live') =>
      createHarnessFetch({
        entry,
        toolbar: { variant: 'default', mode, record: false },
        pageOrigin: PAGE,
        fetch: server,
        onRequest: (record) => records.push(record),
      });
    const fixtures = make('fixtures');
    await fixtures(`${API}/v1/notes?token=secret`);
    await fixtures(`${OWN}/oauth/status?accountId=a1`);
    await fixtures(`${OWN}/local-setup`);
    await rejectionOf(fixtures(`${API}/v1/tags?token=secret`));
    await make('live')(`${API}/v1/notes`);
    await rejectionOf(make('live')('https://evil.example.com/x'));

    expect(records.map(({ method, url, answer }) => ({ method, url, answer }))).toEqual([
      {
        method: 'GET',
        url: `${API}/v1/notes?...`,
        answer: { kind: 'fixture', fixture: `GET ${API}/v1/notes`, status: 200 },
      },
      {
        method: 'GET',
        url: `${PAGE}${OWN}/oauth/status?...`,
        answer: { kind: 'oauth-connected', connected: true },
      },
      { method: 'GET', url: `${PAGE}${OWN}/local-setup`, answer: { kind: 'server', status: 200 } },
      {
        method: 'GET',
        url: `${API}/v1/tags?...`,
        answer: {
          kind: 'refused',
          message: expect.stringContaining('No recorded response for GET'),
          suggestion: `{ request: 'GET ${API}/v1/tags', response: {} }`,
        },
      },
      { method: 'GET', url: `${API}/v1/notes`, answer: { kind: 'network', status: 200 } },
      {
        method: 'GET',
        url: 'https://evil.example.com/x',
        answer: { kind: 'refused', message: expect.stringContaining('egress') },
      },
    ]);
    expect(records[0]).toMatchObject({ variant: 'default', mode: 'fixtures' });
    expect(records[4]).toMatchObject({ mode: 'live' });
    expect(JSON.stringify(records)).not.toContain('secret');
  });

  it("reports an action's ctx.fetch hops from x-harness-hops after the action's own line; a malformed header adds none", async () => {
    const records: HarnessRequestRecord[] = [];
    const hop = {
      method: 'GET',
      url: `${API}/v1/notes`,
      answer: { kind: 'fixture', fixture: 'GET /v1/notes', status: 200 },
    };
    let header: string | null = encodeURIComponent(JSON.stringify([hop]));
    const fetch = createHarnessFetch({
      entry,
      toolbar: { variant: 'default', mode: 'fixtures', record: false },
      pageOrigin: PAGE,
      fetch: async () =>
        Response.json(
          { ok: true, data: null },
          { headers: header === null ? {} : { 'x-harness-hops': header } },
        ),
      onRequest: (record) => records.push(record),
    });
    await fetch(`${OWN}/actions/sync`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(records).toEqual([
      expect.objectContaining({ method: 'POST', answer: { kind: 'server', status: 200 } }),
      { ...hop, variant: 'default', mode: 'fixtures', via: 'ctx.fetch of sync' },
    ]);
    header = '%%not json';
    await fetch(`${OWN}/actions/sync`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(records).toHaveLength(3);
  });
});
