import {
  createVendorClient,
  defineIntegration,
  isVendorHttpError,
  NoRecordedResponseError,
  VendorHttpError,
} from '@platform/sdk/integration';
import { createMockContext } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import { buildVendorClient, type VendorClientEnv } from './_vendorClient.js';
import type { VendorClientContext, VendorClientOptions } from './types.js';

const API = 'https://api.acme.test';
const definition = defineIntegration({ slug: 'acme-sync', egress: [API] });
// A fixed clock on a whole second, so an HTTP date (second precision) is an exact wait.
const NOW = Date.UTC(2030, 0, 2, 3, 4, 5);

type Answer = Response | Error | ((request: Request) => Response);

/** A mock ctx whose vendor answers `answers` in order, and a client over it that sleeps nowhere. */
function setup(
  answers: Answer[],
  options: Partial<VendorClientOptions> & { deadline?: number; remainingMs?: () => number } = {},
  onSleep: (ms: number) => void = () => {},
) {
  const requests: Request[] = [];
  const ctx = createMockContext(definition, {
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    fetchHandlers: [
      {
        match: `${API}/*`,
        respond: (request) => {
          requests.push(request);
          const answer = answers.shift();
          if (answer === undefined) throw new Error(`unexpected request ${request.method} ${request.url}`);
          if (answer instanceof Error) throw answer;
          return typeof answer === 'function' ? answer(request) : answer;
        },
      },
    ],
  });
  const sleeps: number[] = [];
  const env: VendorClientEnv = {
    sleep: async (ms) => {
      sleeps.push(ms);
      onSleep(ms);
    },
    now: () => NOW,
    random: () => 0.5,
  };
  const context: VendorClientContext =
    options.remainingMs === undefined ? ctx : { fetch: ctx.fetch, remainingMs: options.remainingMs };
  const { deadline: _deadline, remainingMs: _remaining, ...clientOptions } = options;
  const client = buildVendorClient(context, { name: 'Acme', baseUrl: `${API}/v1`, ...clientOptions }, env);
  return { client, ctx, requests, sleeps };
}

const status = (code: number, headers: Record<string, string> = {}, body = '') =>
  new Response(body === '' ? null : body, { status: code, headers });

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createVendorClient: requests', () => {
  it('joins paths to the base URL, adds the query, merges headers and sends JSON', async () => {
    const { client, requests } = setup([Response.json({ id: 7 }, { status: 201 })], {
      headers: { authorization: 'Bearer t', accept: 'application/vnd.acme+json' },
    });
    const created = await client.json('post', '/notes', {
      json: { title: 'Hi' },
      query: { tags: ['a', 'b'], draft: false, skip: undefined, none: null },
      headers: { 'x-request': '1' },
    });
    expect(created).toEqual({ id: 7 });
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe(`${API}/v1/notes?tags=a&tags=b&draft=false`);
    expect(request!.headers.get('authorization')).toBe('Bearer t');
    expect(request!.headers.get('accept')).toBe('application/vnd.acme+json');
    expect(request!.headers.get('x-request')).toBe('1');
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(await request!.text()).toBe('{"title":"Hi"}');
  });

  it("sends ctx.fetch's User-Agent naming the integration, unless the client sets its own", async () => {
    const plain = setup([status(204)]);
    await plain.client.request('GET', '/ping');
    expect(plain.requests[0]!.headers.get('user-agent')).toBe('platform-integration/acme-sync');
    const own = setup([status(204)], { headers: { 'User-Agent': 'acme-sync-bot/2' } });
    await own.client.request('GET', '/ping');
    expect(own.requests[0]!.headers.get('user-agent')).toBe('acme-sync-bot/2');
  });

  it('answers undefined for an empty JSON body and explains a body that is not JSON', async () => {
    const { client } = setup([status(204), status(200, {}, '<html>oops https://x.test/?key=s3cr3t</html>')]);
    expect(await client.json('DELETE', '/notes/1')).toBeUndefined();
    const error = await rejection(client.json('GET', '/notes/1'));
    expect(error.message).toBe(
      'Acme answered 200 to GET https://api.acme.test/v1/notes/1 with a body that is not JSON (<html>oops https://x.test/?...</html>); read it with request() instead',
    );
  });

  it('refuses a URL on another origin, so the client headers stay with the vendor', async () => {
    const { client, requests } = setup([]);
    const error = await rejection(client.request('GET', 'https://evil.test/x?token=1'));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      'Acme: https://evil.test/x?... is not on https://api.acme.test; call ctx.fetch for other origins',
    );
    expect(requests).toEqual([]);
  });

  it('throws a request fetch cannot form at once, not as a network error to retry', async () => {
    const { client, requests, sleeps } = setup([]);
    const error = await rejection(client.request('GET', '/notes', { body: 'x' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(requests).toEqual([]);
    expect(sleeps).toEqual([]);
  });

  it('checks its options', () => {
    const { ctx } = setup([]);
    expect(() => createVendorClient(ctx, { name: '', baseUrl: API })).toThrow(
      /name must be the vendor's name/,
    );
    expect(() => createVendorClient(ctx, { name: 'Acme', baseUrl: 'api.acme.test' })).toThrow(
      'createVendorClient(Acme): baseUrl must be an absolute http(s) URL such as \'https://api.acme.com/v1\'; got "api.acme.test"',
    );
    expect(() => createVendorClient(ctx, { name: 'Acme', baseUrl: `${API}?key=1` })).toThrow(
      /takes no query/,
    );
    expect(() => createVendorClient(ctx, { name: 'Acme', baseUrl: API, retry: { maxAttempts: 0 } })).toThrow(
      'Acme: retry.maxAttempts must be an integer of at least 1 (1 sends once); got 0',
    );
  });
});

describe('createVendorClient: errors', () => {
  it('throws VendorHttpError naming vendor, status, method, URL and body, without retrying a 422', async () => {
    const { client, requests, sleeps } = setup([
      Response.json({ message: 'Validation Failed', errors: [{ field: 'title' }] }, { status: 422 }),
    ]);
    const error = await rejection(client.request('POST', '/notes', { json: {} }));
    expect(error).toBeInstanceOf(VendorHttpError);
    expect(isVendorHttpError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'VendorHttpError',
      code: 'VENDOR_HTTP_ERROR',
      vendor: 'Acme',
      status: 422,
      statusText: 'Unprocessable Entity',
      method: 'POST',
      url: `${API}/v1/notes`,
      attempts: 1,
    });
    expect(error.message).toBe(
      'Acme answered 422 Unprocessable Entity to POST https://api.acme.test/v1/notes: {"message":"Validation Failed","errors":[{"field":"title"}]}',
    );
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry a 404, whatever the method', async () => {
    const { client, requests } = setup([status(404, {}, 'no such note')]);
    const error = await rejection(client.request('GET', '/notes/9'));
    expect(error.message).toBe(
      'Acme answered 404 Not Found to GET https://api.acme.test/v1/notes/9: no such note',
    );
    expect(requests).toHaveLength(1);
  });

  it('redacts a token in the URL query and in the body, and cuts a long body', async () => {
    const body = JSON.stringify({
      error: 'bad_token',
      access_token: 'sk_live_abcdef123456',
      detail: `see https://api.acme.test/docs?api_key=k3y for help; sent Bearer abcdefghijklmnop`,
      padding: 'x'.repeat(5000),
    });
    const { client } = setup([status(401, {}, body)]);
    const error = await rejection(client.request('GET', '/me', { query: { token: 'q-secret-1' } }));
    expect(error.url).toBe(`${API}/v1/me?...`);
    for (const secret of ['q-secret-1', 'sk_live_abcdef123456', 'k3y', 'abcdefghijklmnop']) {
      expect(error.message).not.toContain(secret);
      expect(error.body).not.toContain(secret);
    }
    expect(error.body).toContain('"access_token":"[redacted]"');
    expect(error.body).toContain('Bearer [redacted]');
    expect(error.body).toMatch(/ \[\.\.\. cut: the body had \d+ characters\]$/);
    expect(error.body.length).toBeLessThan(2100);
  });

  it('matches by name, as a bundle with its own copy of the sdk needs', () => {
    const foreign = Object.assign(new Error('GitHub answered 500'), { name: 'VendorHttpError' });
    expect(isVendorHttpError(foreign)).toBe(true);
    expect(isVendorHttpError(new Error('x'))).toBe(false);
  });
});

describe('createVendorClient: retries', () => {
  it('retries a 429 after Retry-After seconds, also for POST', async () => {
    const { client, requests, sleeps } = setup([
      status(429, { 'retry-after': '2' }),
      Response.json({ ok: true }, { status: 201 }),
    ]);
    expect(await client.json('POST', '/notes', { json: { title: 'x' } })).toEqual({ ok: true });
    expect(sleeps).toEqual([2000]);
    expect(requests).toHaveLength(2);
    expect(await requests[1]!.text()).toBe('{"title":"x"}');
  });

  it('retries a 429 after a Retry-After HTTP date', async () => {
    const { client, sleeps } = setup([
      status(429, { 'retry-after': new Date(NOW + 3000).toUTCString() }),
      Response.json([]),
    ]);
    await client.json('GET', '/notes');
    expect(sleeps).toEqual([3000]);
  });

  it('retries a GET on 503 with backoff, then answers', async () => {
    const { client, sleeps, ctx } = setup([status(503), status(502), Response.json({ id: 1 })]);
    expect(await client.json('GET', '/notes/1')).toEqual({ id: 1 });
    // Full jitter with random() = 0.5: half of 500, then half of 1000.
    expect(sleeps).toEqual([250, 500]);
    expect(ctx.mock.logs.map((entry) => entry.message)).toContain(
      'Acme answered 503 to GET https://api.acme.test/v1/notes/1; try 2 of 4 in 250 ms',
    );
  });

  it('gives up after maxAttempts with the last answer', async () => {
    const { client, requests, sleeps } = setup([status(503), status(503), status(503), status(504)]);
    const error = await rejection(client.request('GET', '/notes'));
    expect(error).toMatchObject({ status: 504, attempts: 4 });
    expect(error.message).toBe(
      'Acme answered 504 Gateway Timeout to GET https://api.acme.test/v1/notes (after 4 attempts)',
    );
    expect(requests).toHaveLength(4);
    expect(sleeps).toEqual([250, 500, 1000]);
  });

  it('does not retry a POST on 503 unless it is marked idempotent', async () => {
    const once = setup([status(503), Response.json({})]);
    expect(await rejection(once.client.request('POST', '/notes', { json: {} }))).toMatchObject({
      status: 503,
      attempts: 1,
    });
    expect(once.requests).toHaveLength(1);
    const keyed = setup([status(503), Response.json({ id: 2 })]);
    const answer = await keyed.client.json('POST', '/notes', {
      json: {},
      headers: { 'idempotency-key': 'k1' },
      idempotent: true,
    });
    expect(answer).toEqual({ id: 2 });
    expect(keyed.requests).toHaveLength(2);
  });

  it('retries a network error (TypeError) for a GET, never for a POST', async () => {
    const get = setup([
      new TypeError('the request to https://api.acme.test/ failed: ECONNRESET'),
      Response.json([1]),
    ]);
    expect(await get.client.json('GET', '/notes')).toEqual([1]);
    expect(get.sleeps).toEqual([250]);
    const post = setup([new TypeError('the request failed: ECONNRESET'), Response.json({})]);
    const error = await rejection(post.client.request('POST', '/notes', { json: {} }));
    expect(error).toBeInstanceOf(TypeError);
    expect(post.requests).toHaveLength(1);
  });

  it('never retries a refusal: an origin outside egress, a request no fixture answers', async () => {
    const { ctx } = setup([]);
    const sleeps: number[] = [];
    const env: VendorClientEnv = {
      sleep: async (ms) => void sleeps.push(ms),
      now: () => NOW,
      random: () => 0.5,
    };
    const outside = buildVendorClient(ctx, { name: 'Other', baseUrl: 'https://api.other.test' }, env);
    expect((await rejection(outside.request('GET', '/x'))).name).toBe('EgressDeniedError');
    const unanswered = buildVendorClient(createMockContext(definition), { name: 'Acme', baseUrl: API }, env);
    expect(await rejection(unanswered.request('GET', '/x'))).toBeInstanceOf(NoRecordedResponseError);
    expect(sleeps).toEqual([]);
  });

  it('does not wait past the call budget: gives up with the last answer when the wait does not fit', async () => {
    const tight = setup([status(429, { 'retry-after': '5' }), Response.json({})], {
      deadline: Date.now() + 3000,
    });
    const error = await rejection(tight.client.request('GET', '/notes'));
    expect(error).toMatchObject({ status: 429, attempts: 1 });
    expect(tight.sleeps).toEqual([]);
    expect(tight.ctx.mock.logs.map((entry) => entry.message)).toContainEqual(
      expect.stringMatching(
        /^Acme answered 429 to GET https:\/\/api\.acme\.test\/v1\/notes; not retried: a 5000 ms wait does not fit the \d+ ms left of the call$/,
      ),
    );

    // Each wait spends the budget: 3000 ms left, 1000 kept free, Retry-After 1 s twice, then no more.
    let remaining = 3000;
    const spending = setup(
      [
        status(429, { 'retry-after': '1' }),
        status(429, { 'retry-after': '1' }),
        status(429, { 'retry-after': '1' }),
      ],
      { remainingMs: () => remaining },
      (ms) => {
        remaining -= ms;
      },
    );
    const spent = await rejection(spending.client.request('GET', '/notes'));
    expect(spent).toMatchObject({ status: 429, attempts: 3 });
    expect(spending.sleeps).toEqual([1000, 1000]);
  });

  it('does not wait longer than maxDelayMs for a Retry-After, and retry: false sends once', async () => {
    const long = setup([status(503, { 'retry-after': '120' })]);
    expect(await rejection(long.client.request('GET', '/notes'))).toMatchObject({ status: 503, attempts: 1 });
    expect(long.sleeps).toEqual([]);
    expect(long.ctx.mock.logs.map((entry) => entry.message)).toContain(
      'Acme answered 503 to GET https://api.acme.test/v1/notes; not retried: it asks for a 120000 ms wait, more than maxDelayMs (30000)',
    );
    const once = setup([status(429, { 'retry-after': '1' })]);
    expect(await rejection(once.client.request('GET', '/notes', { retry: false }))).toMatchObject({
      attempts: 1,
    });
  });
});

describe('createVendorClient: paginate', () => {
  const collect = async <T>(pages: AsyncIterable<T[]>) => {
    const all: T[][] = [];
    for await (const page of pages) all.push(page);
    return all;
  };

  it('link: follows rel="next" among several rels, relative or absolute, until there is none', async () => {
    const { client, requests } = setup([
      Response.json([1, 2], {
        headers: {
          link: `<${API}/v1/items?page=9>; rel="last", <${API}/v1/items?page=2&per_page=2>; rel="next"`,
        },
      }),
      Response.json([3, 4], {
        headers: { link: '</v1/items?page=1>; rel="prev first", </v1/items?page=3&per_page=2>; rel="next"' },
      }),
      Response.json([5], { headers: { link: '</v1/items?page=2>; rel=prev' } }),
    ]);
    const pages = await collect(client.paginate<number>('/items', { style: 'link', query: { per_page: 2 } }));
    expect(pages).toEqual([[1, 2], [3, 4], [5]]);
    expect(requests.map((request) => request.url)).toEqual([
      `${API}/v1/items?per_page=2`,
      `${API}/v1/items?page=2&per_page=2`,
      `${API}/v1/items?page=3&per_page=2`,
    ]);
  });

  it('link: refuses a next page on another origin, and one it already read', async () => {
    const elsewhere = setup([
      Response.json([1], { headers: { link: '<https://evil.test/items?page=2>; rel="next"' } }),
    ]);
    const first = await rejection(collect(elsewhere.client.paginate('/items', { style: 'link' })));
    expect(first.message).toBe(
      'Acme: https://evil.test/items?... is not on https://api.acme.test; call ctx.fetch for other origins',
    );
    const circle = setup([
      Response.json([1], { headers: { link: '</v1/items?page=2>; rel="next"' } }),
      Response.json([2], { headers: { link: '</v1/items>; rel="next"' } }),
    ]);
    const second = await rejection(collect(circle.client.paginate('/items', { style: 'link' })));
    expect(second.message).toBe(
      'Acme: paginate of GET https://api.acme.test/v1/items was sent back to a page it already read; stopped',
    );
  });

  it('page: counts pages up and stops at a short page', async () => {
    const { client, requests } = setup([
      Response.json({ items: ['a', 'b'] }),
      Response.json({ items: ['c', 'd'] }),
      Response.json({ items: ['e'] }),
    ]);
    const pages = await collect(
      client.paginate('/items', {
        style: 'page',
        sizeParam: 'per_page',
        size: 2,
        items: (body: { items: string[] }) => body.items,
        query: { q: 'x' },
      }),
    );
    expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(requests.map((request) => new URL(request.url).search)).toEqual([
      '?q=x&page=1&per_page=2',
      '?q=x&page=2&per_page=2',
      '?q=x&page=3&per_page=2',
    ]);
  });

  it('page: without a size, stops at an empty page; starts where told', async () => {
    const { client, requests } = setup([Response.json([1]), Response.json([2]), Response.json([])]);
    expect(await collect(client.paginate('/items', { style: 'page', pageParam: 'p', start: 0 }))).toEqual([
      [1],
      [2],
    ]);
    expect(requests.map((request) => new URL(request.url).searchParams.get('p'))).toEqual(['0', '1', '2']);
  });

  interface EventsPage {
    readonly data: number[];
    readonly next_cursor: string | null;
  }

  it('cursor: sends the cursor each page names until there is none', async () => {
    const { client, requests } = setup([
      Response.json({ data: [1], next_cursor: 'c2' }),
      Response.json({ data: [], next_cursor: 'c3' }),
      Response.json({ data: [3], next_cursor: null }),
    ]);
    const pages = await collect(
      client.paginate('/events', {
        style: 'cursor',
        cursorParam: 'after',
        nextCursor: (body: EventsPage) => body.next_cursor,
        items: (body: EventsPage) => body.data,
      }),
    );
    expect(pages).toEqual([[1], [3]]);
    expect(requests.map((request) => new URL(request.url).search)).toEqual(['', '?after=c2', '?after=c3']);
  });

  it('cursor: stops a cursor that repeats', async () => {
    const { client } = setup([
      Response.json({ data: [1], next: 'a' }),
      Response.json({ data: [2], next: 'a' }),
    ]);
    const error = await rejection(
      collect(
        client.paginate('/events', {
          style: 'cursor',
          nextCursor: (body) => body.next,
          items: (body) => body.data,
        }),
      ),
    );
    expect(error.message).toMatch(/was sent back to a page it already read; stopped$/);
  });

  it('throws past maxPages, and for a page that holds no list', async () => {
    const many = setup([Response.json([1]), Response.json([2])]);
    const error = await rejection(collect(many.client.paginate('/items', { style: 'page', maxPages: 1 })));
    expect(error.message).toBe(
      'Acme: paginate read 1 pages of GET https://api.acme.test/v1/items?... and the vendor names more; pass a larger maxPages or narrow the query',
    );
    const object = setup([Response.json({ results: [] })]);
    const shape = await rejection(collect(object.client.paginate('/items', { style: 'link' })));
    expect(shape.message).toBe(
      'Acme: the page GET https://api.acme.test/v1/items answered holds no list of items; pass items: (body) => body.<the field holding them> to paginate',
    );
  });

  it('retries a page like any GET', async () => {
    const { client, sleeps } = setup([status(503), Response.json([1])]);
    expect(await collect(client.paginate('/items', { style: 'link' }))).toEqual([[1]]);
    expect(sleeps).toEqual([250]);
  });
});
