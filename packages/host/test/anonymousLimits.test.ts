import { afterAll, beforeAll, expect, it } from 'vitest';
import { captureLog } from './_logCapture.js';
import { type NodeServedHost, serveOverNode } from './_nodeServer.js';

// The anonymous routes (password sign-in, device token polls, device approvals and look-ups; device codes in
// deviceCodeLimit.test.ts) are capped per client address through a real node server: past the
// limit 429 `rate_limited` with Retry-After and one security event; another address goes on.

const log = captureLog();
const MINUTE = Math.floor(Date.now() / 60_000) * 60_000;
let served: NodeServedHost;
let base: string;
beforeAll(async () => {
  served = await serveOverNode({
    logger: log.logger,
    runtime: 'in-process',
    limits: {
      signInsPerAddressPerMinute: 2,
      deviceTokenPollsPerMinute: 2,
      deviceApprovalsPerMinute: 2,
      deviceLookupsPerMinute: 2,
    },
    now: () => new Date(MINUTE + 30_000),
    trustedProxies: '127.0.0.1',
  });
  base = served.base;
});
afterAll(async () => {
  await served?.close();
});

const post = (path: string, address: string, body: unknown) =>
  fetch(`${base}/api/platform${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });

const get = (path: string, address: string) =>
  fetch(`${base}/api/platform${path}`, { headers: { 'x-forwarded-for': address } });

async function expectLimited(
  path: string,
  body: ((n: number) => unknown) | 'GET',
  address: string,
  allowed: number[],
) {
  const send = (from: string, n: number) => (body === 'GET' ? get(path, from) : post(path, from, body(n)));
  const statuses: number[] = [];
  for (let n = 0; n < 2; n++) statuses.push((await send(address, n)).status);
  expect(statuses).toEqual(allowed);
  const refused = await send(address, 2);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  const error = ((await refused.json()) as { error: { code: string; message: string; hint: string } }).error;
  expect(error.code).toBe('rate_limited');
  expect(error.message).toMatch(/^More than 2 .+ for this address in a minute\.$/);
  expect(error.hint).toMatch(/^Wait \d+ seconds/);
  expect(log.security('rate_limited').filter((entry) => entry.address === address)).toHaveLength(1);
  // Another client address is not refused.
  expect((await send(`${address}9`, 3)).status).toBe(allowed[0]);
}

it('caps password sign-ins per address (whatever the email)', async () => {
  await expectLimited(
    '/sign-in',
    (n) => ({ email: `u${n}@example.com`, password: 'x' }),
    '203.0.113.1',
    [401, 401],
  );
});

it('caps device token polls per address', async () => {
  await expectLimited('/device/token', () => ({ device_code: 'unknown' }), '203.0.113.2', [400, 400]);
});

it('caps device approvals per address, before the credential is checked', async () => {
  await expectLimited(
    '/device/approve',
    () => ({ user_code: 'BCDF-GHJK', decision: 'approve' }),
    '203.0.113.3',
    [401, 401],
  );
});

it('caps look-ups of who asked for a device code per address, before the session is checked', async () => {
  await expectLimited('/device/requests/BCDF-GHJK', 'GET', '203.0.113.4', [401, 401]);
});
