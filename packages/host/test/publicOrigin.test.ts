// Absolute URLs come from the configured public origin, or from the address `serve` listens on:
// never from a request's Host header. Serving anything but loopback needs `--public-origin`.

import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPublicOrigin, type RunningServer, serve } from '../src/cli/serve.js';
import { tempDir } from './_cli.js';

const silent = pino({ level: 'silent' });

describe('checkPublicOrigin', () => {
  it('needs a public origin off loopback, and takes none on loopback', () => {
    expect(checkPublicOrigin('127.0.0.1', undefined)).toBeUndefined();
    expect(checkPublicOrigin('localhost', undefined)).toBeUndefined();
    expect(checkPublicOrigin('::1', undefined)).toBeUndefined();
    for (const hostname of ['0.0.0.0', '::', '10.0.0.5', 'platform.example.com']) {
      expect(() => checkPublicOrigin(hostname, undefined)).toThrow(/--public-origin/);
    }
  });

  it('takes an http(s) origin, with or without a trailing slash, and nothing else', () => {
    expect(checkPublicOrigin('0.0.0.0', 'https://platform.example.com/')).toBe(
      'https://platform.example.com',
    );
    expect(checkPublicOrigin('0.0.0.0', 'http://10.0.0.5:8787')).toBe('http://10.0.0.5:8787');
    for (const bad of [
      'platform.example.com',
      'ftp://platform.example.com',
      'https://platform.example.com/app',
      'https://x.example/?a=1',
    ]) {
      expect(() => checkPublicOrigin('0.0.0.0', bad)).toThrow(/not (a URL|an origin)/);
    }
  });
});

// A request with a forged Host header, straight through node:http (fetch does not let one set Host).
function postWithHost(url: string, host: string, body: string): Promise<{ status: number; json: unknown }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('serve writes absolute URLs from its own origin', { timeout: 60_000 }, () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  const running: RunningServer[] = [];
  beforeAll(async () => {
    root = await tempDir('public-origin');
  });
  afterAll(async () => {
    for (const server of running) await server.close();
    await root.cleanup();
  });

  it('on loopback without one: the listening address, whatever the Host header says', async () => {
    const server = await serve({ dataDir: join(root.path, 'a'), port: 0, examplesDir: null, logger: silent });
    running.push(server);
    const answer = await postWithHost(`${server.url}/api/platform/device/code`, 'evil.example', '{}');
    expect(answer.status).toBe(200);
    const uri = (answer.json as { data: { verification_uri: string } }).data.verification_uri;
    expect(uri).toBe(`${server.url}/device`);
  });

  it('with one: that origin', async () => {
    const server = await serve({
      dataDir: join(root.path, 'b'),
      port: 0,
      examplesDir: null,
      logger: silent,
      publicOrigin: 'https://platform.example.com',
    });
    running.push(server);
    const answer = await postWithHost(`${server.url}/api/platform/device/code`, 'evil.example', '{}');
    expect((answer.json as { data: { verification_uri: string } }).data.verification_uri).toBe(
      'https://platform.example.com/device',
    );
  });

  it('refuses to serve on all addresses without one, claiming nothing', async () => {
    await expect(
      serve({
        dataDir: join(root.path, 'c'),
        port: 0,
        hostname: '0.0.0.0',
        examplesDir: null,
        logger: silent,
      }),
    ).rejects.toThrow(/--public-origin/);
    expect(existsSync(join(root.path, 'c'))).toBe(false);
  });
});
