import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { EgressDeniedError } from '@platform/sdk/integration';
import {
  type CapabilityFetchRequest,
  createGuestFetch,
  createMemoryCapabilities,
} from '@platform/sdk/runtime';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { loopbackCertificate } from '../../../test/_tls.js';
import { createEgressFetch, type EgressFetchOptions } from './createEgressFetch.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

const SECRET = 'sekret-query-value';
const seen: Seen[] = [];
let http: Server;
let https: Server;
let port = 0;
let tlsPort = 0;
let ca = '';
let origin = '';

// One handler for both servers: records what arrived, then answers by path.
function handle(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/echo') {
      res.writeHead(201, [
        ['content-type', 'application/octet-stream'],
        ['x-method', req.method ?? ''],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ]);
      res.end(body);
    } else if (url.pathname === '/binary') {
      res.end(Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
    } else if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    } else if (url.pathname === '/big') {
      const n = Number(url.searchParams.get('n'));
      if (url.searchParams.has('declared')) res.setHeader('content-length', n);
      // Declares a length, sends a little, then waits: only the declared length tells it is too big.
      if (url.searchParams.has('stall')) return void res.write('x');
      // Two writes without a declared length: the size is only known while reading.
      res.write(Buffer.alloc(Math.floor(n / 2), 1));
      res.end(Buffer.alloc(n - Math.floor(n / 2), 2));
    } else if (url.pathname === '/stall-body') {
      res.writeHead(200, { 'content-length': '10' }).write('12345');
    } else if (url.pathname !== '/hang') {
      res.setHeader('x-host', req.headers.host ?? '');
      res.end('ok');
    }
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

beforeAll(async () => {
  const pems = await loopbackCertificate();
  ca = pems.cert;
  http = createServer(handle);
  https = createHttpsServer(pems, handle);
  port = await listen(http);
  tlsPort = await listen(https);
  origin = `http://api.acme.test:${port}`;
});

afterAll(async () => {
  for (const server of [http, https]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

beforeEach(() => {
  seen.length = 0;
});

/** A lookup (the test's "DNS") answering every name with `addresses`, counting calls. */
function answering(...addresses: string[]) {
  return vi.fn(async (_hostname: string) =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const),
  );
}

const openFetches: { close(): Promise<void> }[] = [];
function egressFetch(options: EgressFetchOptions = {}) {
  const fetch = createEgressFetch(options);
  openFetches.push(fetch);
  return fetch;
}
afterAll(async () => {
  await Promise.all(openFetches.map((fetch) => fetch.close()));
});

function get(url: string, init: Partial<CapabilityFetchRequest> = {}): CapabilityFetchRequest {
  return { url, method: 'GET', headers: [], body: null, ...init };
}

async function expectDenied(promise: Promise<unknown>, expected: { origin: string; reason: string }) {
  const error = await promise.then(
    () => expect.fail('the request was not refused'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EgressDeniedError);
  expect(error).toMatchObject({ code: 'EGRESS_DENIED', ...expected });
  const message = (error as Error).message;
  expect(message).not.toContain(SECRET);
  return message;
}

async function expectFailure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => expect.fail('the request did not fail'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(EgressDeniedError);
  expect((error as Error).message).not.toContain(SECRET);
  return error as Error;
}

describe('createEgressFetch: allowed origins', () => {
  test('sends method, headers and body and returns status, headers and a base64 body', async () => {
    const fetch = egressFetch({ allowLoopback: true, lookup: answering('127.0.0.1') });
    const sent = Buffer.from([0, 1, 2, 250, 255]);
    const response = await fetch(
      get(`${origin}/echo?page=2`, {
        method: 'PUT',
        headers: [
          ['x-api-key', 'k1'],
          ['content-type', 'application/octet-stream'],
          ['host', 'evil.example'],
          ['proxy-connection', 'keep-alive'],
          ['connection', 'keep-alive'],
        ],
        body: sent.toString('base64'),
      }),
      [origin],
    );
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Created');
    expect(response.headers).toContainEqual(['x-method', 'PUT']);
    expect(response.headers.filter(([name]) => name === 'set-cookie')).toEqual([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    expect(Buffer.from(response.body, 'base64')).toEqual(sent);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'PUT', url: '/echo?page=2', body: sent });
    expect(seen[0]?.headers).toMatchObject({ 'x-api-key': 'k1', host: `api.acme.test:${port}` });
    expect(seen[0]?.headers).not.toHaveProperty('proxy-connection');
  });

  test('returns a binary body byte for byte', async () => {
    const fetch = egressFetch({ allowLoopback: true, lookup: answering('127.0.0.1') });
    const response = await fetch(get(`${origin}/binary`), [origin]);
    expect([...Buffer.from(response.body, 'base64')]).toEqual(Array.from({ length: 256 }, (_, i) => i));
  });

  test('a wildcard covers subdomains over https only; what it covers goes on to the address check', async () => {
    const lookup = answering('127.0.0.1');
    const fetch = egressFetch({ lookup });
    const egress = ['https://*.acme.test'];
    await expectDenied(fetch(get('https://eu.api.acme.test/v1'), egress), {
      origin: 'https://eu.api.acme.test',
      reason: 'private-address',
    });
    expect(lookup).toHaveBeenCalledWith('eu.api.acme.test');
    for (const url of ['https://acme.test/', 'http://api.acme.test/', 'https://api.acme.test:8443/']) {
      await expectDenied(fetch(get(url), egress), { origin: new URL(url).origin, reason: 'egress' });
    }
    expect(lookup).toHaveBeenCalledTimes(1);
  });
});

describe('createEgressFetch: User-Agent', () => {
  test("the guest's User-Agent reaches the server as sent, the default and a request's own", async () => {
    const fetch = egressFetch({ allowLoopback: true, lookup: answering('127.0.0.1') });
    const capabilities = createMemoryCapabilities({ fetch: (request) => fetch(request, [origin]) });
    const guestFetch = createGuestFetch({
      egress: [origin],
      capabilities,
      userAgent: 'platform-integration/acme-notes',
    });
    await guestFetch(`${origin}/`);
    await guestFetch(`${origin}/`, { headers: { 'user-agent': 'acme-bot/1.0' } });
    expect(seen.map((request) => request.headers['user-agent'])).toEqual([
      'platform-integration/acme-notes',
      'acme-bot/1.0',
    ]);
  });
});

describe('createEgressFetch: refusals before any connection', () => {
  test('an origin outside egress is refused without a DNS lookup or a request', async () => {
    const lookup = answering('127.0.0.1');
    const fetch = egressFetch({ allowLoopback: true, lookup });
    const message = await expectDenied(
      fetch(get(`${origin}/echo?token=${SECRET}`), ['https://api.acme.com']),
      {
        origin,
        reason: 'egress',
      },
    );
    expect(message).toContain(`${origin}/echo?...`);
    expect(message).toContain('add it to egress');
    // Same host, other scheme or port: a different origin.
    await expectDenied(fetch(get(`https://api.acme.test:${port}/`), [origin]), {
      origin: `https://api.acme.test:${port}`,
      reason: 'egress',
    });
    expect(lookup).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });

  test('credentials in the URL are refused, including the userinfo trick that hides the real host', async () => {
    const fetch = egressFetch({ allowLoopback: true, lookup: answering('127.0.0.1') });
    // The host here is 127.0.0.1; "api.acme.com" is only a user name.
    await expectDenied(fetch(get(`https://api.acme.com@127.0.0.1:${tlsPort}/`), ['https://api.acme.com']), {
      origin: `https://127.0.0.1:${tlsPort}`,
      reason: 'credentials',
    });
    const message = await expectDenied(
      fetch(get(`${origin.replace('//', '//user:pw@')}/?q=${SECRET}`), [origin]),
      {
        origin,
        reason: 'credentials',
      },
    );
    expect(message).not.toContain('pw@');
    expect(seen).toHaveLength(0);
  });

  test('schemes other than http and https are refused', async () => {
    const fetch = egressFetch({ allowLoopback: true });
    await expectDenied(fetch(get('file:///etc/passwd'), ['https://api.acme.com']), {
      origin: 'null',
      reason: 'scheme',
    });
    await expectDenied(fetch(get(`ftp://127.0.0.1:${port}/`), [`ftp://127.0.0.1:${port}`]), {
      origin: `ftp://127.0.0.1:${port}`,
      reason: 'scheme',
    });
  });
});

describe('createEgressFetch: private addresses (SSRF)', () => {
  // Each origin is in egress, so only the address check stands between the request and the target;
  // loopback targets use the test server's port, so a missed refusal would reach it.
  const literals: [string, string][] = [
    ['http://10.0.0.1/', '(private)'],
    ['http://172.16.5.4/', '(private)'],
    ['http://192.168.1.1/', '(private)'],
    ['http://127.0.0.1:PORT/', '(loopback)'],
    ['http://127.9.8.7:PORT/', '(loopback)'],
    [`http://169.254.169.254/latest/meta-data?token=${SECRET}`, '(link-local)'],
    ['http://0.0.0.0:PORT/', '(unspecified)'],
    ['http://100.64.0.1/', '(carrier-grade NAT)'],
    ['http://255.255.255.255/', '(broadcast)'],
    ['http://224.0.0.1/', '(multicast)'],
    ['http://192.0.2.10/', '(reserved)'],
    ['http://[::1]:PORT/', '(loopback)'],
    ['http://[fe80::1]/', '(link-local)'],
    ['http://[fc00::1]/', '(unique-local)'],
    ['http://[fd12:3456::1]/', '(unique-local)'],
    ['http://[::]/', '(unspecified)'],
    ['http://[ff02::1]/', '(multicast)'],
    ['http://[::ffff:127.0.0.1]:PORT/', '(IPv4-mapped, embedding loopback 127.0.0.1)'],
    ['http://[::ffff:a9fe:a9fe]/', '(IPv4-mapped, embedding link-local 169.254.169.254)'],
    ['http://[::ffff:10.1.2.3]/', '(IPv4-mapped, embedding private 10.1.2.3)'],
    ['http://[64:ff9b::7f00:1]/', '(NAT64)'],
    ['http://[2002:7f00:1::1]/', '(6to4)'],
    ['http://[2001:0:4136:e378::1]/', '(Teredo)'],
    ['http://[::7f00:1]/', '(non-global IPv6)'],
    // WHATWG URL reads these as 127.0.0.1; the check sees the normalised address.
    ['http://2130706433:PORT/', '(loopback)'],
    ['http://0177.0.0.1:PORT/', '(loopback)'],
    ['http://0x7f.1:PORT/', '(loopback)'],
    ['http://0x7f000001:PORT/', '(loopback)'],
    ['http://127.1:PORT/', '(loopback)'],
  ];

  test.each(literals)('refuses %s %s', async (template, addressClass) => {
    const lookup = answering('8.8.8.8');
    const fetch = egressFetch({ lookup });
    const url = new URL(template.replace('PORT', String(port)));
    const message = await expectDenied(fetch(get(url.href), [url.origin]), {
      origin: url.origin,
      reason: 'private-address',
    });
    expect(message).toContain(`${url.hostname.replace(/^\[|\]$/g, '')}`);
    expect(message).toContain(addressClass);
    expect(lookup).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });

  test('refuses a name that resolves to loopback, and says how to allow it for local testing', async () => {
    const lookup = answering('127.0.0.1');
    const fetch = egressFetch({ lookup });
    const message = await expectDenied(fetch(get(`${origin}/?token=${SECRET}`), [origin]), {
      origin,
      reason: 'private-address',
    });
    expect(message).toContain('api.acme.test resolves to 127.0.0.1');
    expect(message).toContain('(loopback)');
    expect(message).toContain('allowLoopback');
    expect(lookup).toHaveBeenCalledExactlyOnceWith('api.acme.test');
    expect(seen).toHaveLength(0);
  });

  test.each([
    [['8.8.8.8', '10.0.0.7'], '10.0.0.7', '(private)'],
    [['169.254.169.254', '8.8.8.8'], '169.254.169.254', '(link-local)'],
    [
      ['2001:4860:4860::8888', '::ffff:7f00:1'],
      '::ffff:7f00:1',
      '(IPv4-mapped, embedding loopback 127.0.0.1)',
    ],
    [['1.1.1.1', 'fe80::1%eth0'], 'fe80::1%eth0', '(scoped (zone index))'],
  ])('refuses a name whose answers %j include %s', async (answers, bad, addressClass) => {
    // A short timeout: were the check to miss, the request would otherwise wait on a public address.
    const fetch = egressFetch({ lookup: answering(...answers), timeoutMs: 200 });
    const message = await expectDenied(fetch(get('https://api.acme.com/'), ['https://api.acme.com']), {
      origin: 'https://api.acme.com',
      reason: 'private-address',
    });
    expect(message).toContain(`resolves to ${bad}`);
    expect(message).toContain(addressClass);
  });

  test('a name that does not resolve fails with the lookup error, not as a refusal', async () => {
    const lookup = vi.fn(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND api.acme.test'), { code: 'ENOTFOUND' });
    });
    const fetch = egressFetch({ allowLoopback: true, lookup });
    const error = await expectFailure(fetch(get(`${origin}/?t=${SECRET}`), [origin]));
    expect(error.message).toBe(`the request to ${origin}/?... failed: getaddrinfo ENOTFOUND api.acme.test`);
    // As fetch reports a network failure: what retry logic takes for "may not have arrived".
    expect(error).toBeInstanceOf(TypeError);
  });
});

describe('createEgressFetch: the loopback switch', () => {
  test('is off by default: 127.0.0.1 is refused even when egress names it', async () => {
    const target = `http://127.0.0.1:${port}`;
    await expectDenied(egressFetch()(get(`${target}/`), [target]), {
      origin: target,
      reason: 'private-address',
    });
    expect(seen).toHaveLength(0);
  });

  test('when on, reaches loopback (and nothing else that is private)', async () => {
    const fetch = egressFetch({ allowLoopback: true });
    const target = `http://127.0.0.1:${port}`;
    const response = await fetch(get(`${target}/`), [target]);
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/', `http://[::ffff:127.0.0.1]:${port}/`]) {
      const other = new URL(url).origin;
      await expectDenied(fetch(get(url), [other]), { origin: other, reason: 'private-address' });
    }
    expect(seen).toHaveLength(1);
  });
});

describe('createEgressFetch: connects to the address it checked (DNS rebinding)', () => {
  test('resolves once per request and connects to that answer, never asking DNS again', async () => {
    // First answer allowed, every later one private: a second lookup for the same request would
    // connect elsewhere (and the system resolver does not know this made-up name at all).
    const lookup = vi.fn(async (_hostname: string) =>
      lookup.mock.calls.length === 1
        ? [{ address: '127.0.0.1', family: 4 } as const]
        : [{ address: '10.0.0.1', family: 4 } as const],
    );
    const fetch = egressFetch({ allowLoopback: true, lookup });
    const response = await fetch(get(`${origin}/`), [origin]);
    expect(response.status).toBe(200);
    expect(response.headers).toContainEqual(['x-host', `api.acme.test:${port}`]);
    expect(lookup).toHaveBeenCalledExactlyOnceWith('api.acme.test');
    expect(seen).toHaveLength(1);

    // The next request asks again and the rebinding answer is refused, pooled connection or not.
    const message = await expectDenied(fetch(get(`${origin}/`), [origin]), {
      origin,
      reason: 'private-address',
    });
    expect(message).toContain('resolves to 10.0.0.1');
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(seen).toHaveLength(1);
  });
});

describe('createEgressFetch: redirects', () => {
  test('returns a redirect as it is, without following it', async () => {
    const fetch = egressFetch({ allowLoopback: true, lookup: answering('127.0.0.1') });
    const response = await fetch(get(`${origin}/redirect?to=/echo`), [origin]);
    expect(response.status).toBe(302);
    expect(response.headers).toContainEqual(['location', '/echo']);
    expect(seen.map((request) => request.url)).toEqual(['/redirect?to=/echo']);
  });

  test('through the guest, every hop is checked again: a redirect to a private address is refused', async () => {
    const lookup = vi.fn(async (hostname: string) => [
      { address: hostname === 'metadata.acme.test' ? '169.254.169.254' : '127.0.0.1', family: 4 } as const,
    ]);
    const fetch = egressFetch({ allowLoopback: true, lookup });
    // A careless egress list names the metadata host; the guest's egress check lets it through.
    const egress = [origin, 'http://metadata.acme.test'];
    const capabilities = createMemoryCapabilities({ fetch: (request) => fetch(request, egress) });
    const guestFetch = createGuestFetch({ egress, capabilities });

    const followed = await guestFetch(`${origin}/redirect?to=/echo`, { method: 'POST', body: 'x' });
    expect(followed.status).toBe(201);
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /redirect?to=/echo',
      'GET /echo',
    ]);

    const target = encodeURIComponent(`http://metadata.acme.test/latest?token=${SECRET}`);
    const message = await expectDenied(guestFetch(`${origin}/redirect?to=${target}`), {
      origin: 'http://metadata.acme.test',
      reason: 'private-address',
    });
    expect(message).toContain('http://metadata.acme.test/latest?...');
    expect(message).toContain('resolves to 169.254.169.254');
    expect(message).toContain('(link-local)');
    expect(lookup).toHaveBeenLastCalledWith('metadata.acme.test');
    expect(seen).toHaveLength(3);
  });
});

describe('createEgressFetch: HTTPS', () => {
  test('trusts a CA passed in `ca` and verifies the certificate against the name, not the address', async () => {
    const fetch = egressFetch({ allowLoopback: true, ca, lookup: answering('127.0.0.1') });
    const target = `https://localhost:${tlsPort}`;
    const response = await fetch(get(`${target}/`), [target]);
    expect(response.status).toBe(200);
    expect(response.headers).toContainEqual(['x-host', `localhost:${tlsPort}`]);

    // Same address, another name: the certificate does not cover it.
    const other = `https://api.acme.test:${tlsPort}`;
    const error = await expectFailure(fetch(get(`${other}/?t=${SECRET}`), [other]));
    expect(error.message).toMatch(
      new RegExp(`^the request to ${other}/\\?\\.\\.\\. failed: .*altnames`, 'i'),
    );
    expect(seen).toHaveLength(1);
  });

  test('refuses a certificate it does not trust', async () => {
    const fetch = egressFetch({ allowLoopback: true, lookup: answering('127.0.0.1') });
    const target = `https://localhost:${tlsPort}`;
    const error = await expectFailure(fetch(get(`${target}/`), [target]));
    expect(error.message).toMatch(/^the request to https:\/\/localhost:\d+\/ failed: .*certificate/);
    expect(seen).toHaveLength(0);
  });
});

describe('createEgressFetch: limits', () => {
  test('times out a server that never answers, and one that stops mid-body', async () => {
    const fetch = egressFetch({ allowLoopback: true, lookup: answering('127.0.0.1'), timeoutMs: 150 });
    for (const path of [`/hang?token=${SECRET}`, '/stall-body?x=1']) {
      const error = await expectFailure(fetch(get(`${origin}${path}`), [origin]));
      expect(error.message).toBe(
        `the request to ${origin}${path.replace(/\?.*/, '')}?... timed out after 150 ms`,
      );
      expect(error).toBeInstanceOf(TypeError);
    }
    expect(seen).toHaveLength(2);
  });

  test('times out a DNS lookup that never answers', async () => {
    const fetch = egressFetch({ lookup: () => new Promise(() => {}), timeoutMs: 100 });
    const error = await expectFailure(fetch(get('https://api.acme.com/'), ['https://api.acme.com']));
    expect(error.message).toBe('the request to https://api.acme.com/ timed out after 100 ms');
  });

  test('caps the response body, declared or not, and keeps working afterwards', async () => {
    const fetch = egressFetch({
      allowLoopback: true,
      lookup: answering('127.0.0.1'),
      maxResponseBytes: 1000,
      timeoutMs: 5000,
    });
    const atLimit = await fetch(get(`${origin}/big?n=1000`), [origin]);
    expect(Buffer.from(atLimit.body, 'base64')).toHaveLength(1000);
    for (const query of ['n=1001', 'n=50000', 'n=5000&declared', 'n=5000&declared&stall']) {
      const error = await expectFailure(fetch(get(`${origin}/big?${query}`), [origin]));
      expect(error.message).toBe(
        `the response from ${origin}/big?... is larger than the 1000-byte limit; request less data (a smaller page or range)`,
      );
      // Not a network failure: asking again gets the same answer.
      expect(error).not.toBeInstanceOf(TypeError);
    }
    expect((await fetch(get(`${origin}/binary`), [origin])).status).toBe(200);
  });
});
