import { buildBundle, createInProcessRuntime, createIsolatedRuntime, type Runtime } from '@platform/host';
import {
  type ActionEnvelope,
  type CapabilityFetchRequest,
  type CapabilityFetchResponse,
  createMemoryCapabilities,
} from '@platform/sdk/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from './_host.js';

// ctx.fetch's User-Agent, ctx.remainingMs() and the sdk's vendor client where partner code runs:
// in an isolate (the prelude's bridged timers, errors rebuilt across the bridge) and in process.
// The fetch capability plays the vendor.

type Answer = CapabilityFetchResponse | Error;

const json = (status: number, body: unknown, headers: [string, string][] = []): CapabilityFetchResponse => ({
  status,
  statusText: '',
  headers: [['content-type', 'application/json'], ...headers],
  body: Buffer.from(JSON.stringify(body)).toString('base64'),
});

let bundle: string;
beforeAll(async () => {
  bundle = await buildBundle(`${FIXTURES}vendor-http/integration.ts`);
});

const runtimes: [string, () => Runtime][] = [
  ['isolated', () => createIsolatedRuntime({ runners: 1 })],
  ['in-process', () => createInProcessRuntime()],
];

describe.each(runtimes)('the vendor client in the %s runtime', (_kind, create) => {
  const runtime = create();
  afterAll(() => runtime.close());

  function call(actionName: string, input: unknown, answers: Answer[], timeoutMs = 10_000) {
    const seen: CapabilityFetchRequest[] = [];
    const capabilities = createMemoryCapabilities({
      fetch: async (request) => {
        seen.push(request);
        const answer = answers.shift();
        if (answer === undefined) throw new Error(`unexpected request ${request.method} ${request.url}`);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    const envelope: Promise<ActionEnvelope> = runtime.invokeAction({
      version: { id: 'vendor-http-v1', slug: 'test-vendor-http', number: 1, loadBundle: async () => bundle },
      capabilities,
      actor: { kind: 'user', userId: 'u1', accountId: 'a1' },
      timeoutMs,
      actionName,
      rawBody: JSON.stringify(input),
    });
    return { envelope, seen, logs: capabilities.state.logs };
  }

  const userAgents = (seen: CapabilityFetchRequest[]) =>
    seen.map((request) => request.headers.find(([name]) => name.toLowerCase() === 'user-agent')?.[1]);

  it('ctx.remainingMs() counts down the call budget', async () => {
    const { envelope } = call('budget', {}, []);
    const result = await envelope;
    expect(result.ok).toBe(true);
    const { remainingMs } = (result as { data: { remainingMs: number } }).data;
    expect(remainingMs).toBeGreaterThan(0);
    expect(remainingMs).toBeLessThanOrEqual(10_000);
  });

  it('ctx.fetch sends User-Agent platform-integration/<slug>, or the one the request sets', async () => {
    const plain = call('plain-fetch', {}, [json(200, {})]);
    expect(await plain.envelope).toEqual({ ok: true, data: { status: 200 } });
    const own = call('plain-fetch', { userAgent: 'acme-bot/3' }, [json(200, {})]);
    expect(await own.envelope).toEqual({ ok: true, data: { status: 200 } });
    expect([...userAgents(plain.seen), ...userAgents(own.seen)]).toEqual([
      'platform-integration/test-vendor-http',
      'acme-bot/3',
    ]);
  });

  it('pages through a Link header, retrying a 503 on the way', async () => {
    const { envelope, seen } = call('list', {}, [
      json(200, [1, 2], [['link', '<https://api.vendor.test/v1/items?page=2>; rel="next"']]),
      json(503, { message: 'busy' }),
      json(200, [3], [['link', '<https://api.vendor.test/v1/items?page=1>; rel="first"']]),
    ]);
    expect(await envelope).toEqual({ ok: true, data: { items: [1, 2, 3] } });
    expect(seen.map((request) => request.url)).toEqual([
      'https://api.vendor.test/v1/items',
      'https://api.vendor.test/v1/items?page=2',
      'https://api.vendor.test/v1/items?page=2',
    ]);
    expect(new Set(userAgents(seen))).toEqual(new Set(['platform-integration/test-vendor-http']));
  });

  it("retries a network failure of the host's fetch (a TypeError across the bridge)", async () => {
    const recovered = call('classify-error', {}, [
      new TypeError('the request failed: ECONNRESET'),
      json(200, 7),
    ]);
    expect(await recovered.envelope).toEqual({ ok: true, data: { data: 7 } });
    const failing = () =>
      new TypeError('the request to https://api.vendor.test/v1/thing failed: ECONNREFUSED');
    const lost = call('classify-error', {}, [failing(), failing(), failing(), failing()]);
    expect(await lost.envelope).toEqual({
      ok: true,
      data: {
        name: 'TypeError',
        isTypeError: true,
        isVendorHttpError: false,
        message: 'the request to https://api.vendor.test/v1/thing failed: ECONNREFUSED',
      },
    });
    expect(lost.seen).toHaveLength(4);
  });

  it('does not wait for a Retry-After past the call budget', async () => {
    const { envelope, seen } = call('classify-error', {}, [json(429, {}, [['retry-after', '30']])], 4000);
    expect(await envelope).toMatchObject({
      ok: true,
      data: {
        isVendorHttpError: true,
        message: 'Acme answered 429 Too Many Requests to GET https://api.vendor.test/v1/thing: {}',
      },
    });
    expect(seen).toHaveLength(1);
  });

  it("fails an action on a vendor 422 and logs the vendor's answer", async () => {
    const { envelope, seen, logs } = call('create', { title: '' }, [
      json(422, { message: 'Validation Failed', errors: [{ field: 'title', code: 'missing' }] }),
    ]);
    expect(await envelope).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Action failed.' },
    });
    expect(seen).toHaveLength(1);
    expect(logs.map((entry) => entry.message)).toContain(
      'action "create" failed: VendorHttpError: Acme answered 422 Unprocessable Entity to POST https://api.vendor.test/v1/issues: {"message":"Validation Failed","errors":[{"field":"title","code":"missing"}]}',
    );
  });
});
