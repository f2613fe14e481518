import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../src/createHost.js';
import { parseTrustedProxies } from '../src/security/clientAddress.js';
import { captureLog } from './_logCapture.js';

// `POST /api/platform/device/code` is anonymous and stores a row per code: capped per client
// address through a real node server (the peer address comes from the socket), behind a trusted
// proxy (its X-Forwarded-For names the client) and without one (the header is the client's word).

const log = captureLog();
const MINUTE = Math.floor(Date.now() / 60_000) * 60_000;

async function served(trustedProxies: string | undefined) {
  const host = await createHost({
    logger: log.logger,
    runtime: 'in-process',
    limits: { deviceCodesPerMinute: 3 },
    // The middle of one minute, held: the counts never cross into the next window.
    now: () => new Date(MINUTE + 30_000),
    ...(trustedProxies === undefined ? {} : { trustedProxies }),
  });
  const server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const code = (forwardedFor?: string) =>
    fetch(`${base}/api/platform/device/code`, {
      method: 'POST',
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    });
  return {
    host,
    code,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await host.close();
    },
  };
}

describe('device codes per client address', () => {
  let proxied: Awaited<ReturnType<typeof served>>;
  let direct: Awaited<ReturnType<typeof served>>;
  beforeAll(async () => {
    proxied = await served('127.0.0.1, 10.0.0.0/8');
    direct = await served(undefined);
  });
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
  });

  it('behind a trusted proxy: counts the forwarded client, refuses its 4th code with 429, not another client', async () => {
    for (let n = 0; n < 3; n++) expect((await proxied.code('203.0.113.7')).status).toBe(200);
    const refused = await proxied.code('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: { code: string; message: string; hint: string } };
    expect(body.error).toMatchObject({
      code: 'rate_limited',
      message: 'More than 3 device codes for this address in a minute.',
    });
    expect(body.error.hint).toMatch(/^Wait \d+ seconds, then run `platform login` again\.$/);
    // Through a second trusted hop (10.0.0.0/8), and with addresses the client wrote itself in front.
    expect((await proxied.code('198.51.100.1, 203.0.113.7, 10.1.2.3')).status).toBe(429);
    expect((await proxied.code('198.51.100.9')).status).toBe(200);
    // One security event per window and address, naming the address.
    const events = log.security('rate_limited').filter((entry) => entry.address === '203.0.113.7');
    expect(events).toHaveLength(1);
  });

  it('with no trusted proxy: X-Forwarded-For is ignored, the connection is the client', async () => {
    for (const forwarded of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      expect((await direct.code(forwarded)).status).toBe(200);
    expect((await direct.code('203.0.113.4')).status).toBe(429);
  });
});

describe('PLATFORM_TRUSTED_PROXIES', () => {
  it('takes addresses and CIDR ranges, IPv4 and IPv6, and IPv4 as a dual-stack socket names it', () => {
    const trusted = parseTrustedProxies(' 127.0.0.1 , 10.0.0.0/8,fd00::/8');
    expect(
      ['127.0.0.1', '10.200.0.1', '::ffff:10.0.0.1', '::ffff:a00:1', 'fd00::1'].map((a) => trusted.has(a)),
    ).toEqual([true, true, true, true, true]);
    expect(['127.0.0.2', '11.0.0.1', 'fe80::1', 'not-an-address'].map((a) => trusted.has(a))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(parseTrustedProxies('').has('127.0.0.1')).toBe(false);
  });

  it('refuses an entry that is not an address or range, at start, naming it and the fix', async () => {
    for (const bad of ['proxy.internal', '10.0.0.0/33', '10.0.0.0/8/1'])
      expect(() => parseTrustedProxies(`127.0.0.1, ${bad}`)).toThrow(`PLATFORM_TRUSTED_PROXIES has "${bad}"`);
    await expect(
      createHost({ runtime: 'in-process', env: { PLATFORM_TRUSTED_PROXIES: 'localhost' } }),
    ).rejects.toThrow(/PLATFORM_TRUSTED_PROXIES has "localhost", which is not an IP address or CIDR range/);
  });
});
