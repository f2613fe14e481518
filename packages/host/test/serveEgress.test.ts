import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createHost } from '@platform/host';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loopbackCertificate } from '../../sdk/test/_tls.js';
import { addMembership, createAccount, createToken, createUser } from '../src/store/users.js';
import { childEnv, runBin, type ServeProcess, startServe, tempDir } from './_cli.js';
import { installFactoryProject } from './_factoryProject.js';

// `serve --allow-loopback-egress` and `--egress-ca` on the real bin: an integration reaches a fake
// vendor on a loopback HTTPS port only with both, only loopback opens (not other private ranges),
// and the egress origins still apply.

let dir: { path: string; cleanup(): Promise<void> };
let dataDir: string;
let caFile: string;
let vendor: Server;
let vendorOrigin: string;
let owner: { accountId: string; token: string };
let serve: ServeProcess | undefined;

const PRIVATE_ORIGIN = 'https://10.0.0.1';

beforeAll(async () => {
  dir = await tempDir('serve-egress');
  dataDir = join(dir.path, 'data');
  const { key, cert } = await loopbackCertificate();
  caFile = join(dir.path, 'vendor-ca.pem');
  await writeFile(caFile, cert);
  vendor = createServer({ key, cert }, (request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ path: request.url, hello: 'from the fake vendor' }));
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  vendorOrigin = `https://127.0.0.1:${(vendor.address() as AddressInfo).port}`;

  const host = await createHost({ dataDir, runtime: 'in-process', logger: pino({ level: 'silent' }) });
  try {
    const user = await createUser(host.db, { email: 'egress@example.test', name: 'Egress' });
    const account = await createAccount(host.db, { slug: 'egress-co', name: 'Egress Co' });
    await addMembership(host.db, account.id, user.id, 'owner');
    await installFactoryProject(
      host,
      [
        {
          slug: 'test-egress-probe',
          fixture: 'egress-probe',
          factory: 'egressProbe',
          options: { egress: [vendorOrigin, PRIVATE_ORIGIN] },
        },
      ],
      { accountId: account.id, userId: user.id },
    );
    const { token } = await createToken(host.db, { userId: user.id, kind: 'token', name: 'test' });
    owner = { accountId: account.id, token };
  } finally {
    await host.close();
  }
}, 120_000);

afterAll(async () => {
  await serve?.stop();
  await new Promise((resolve) => vendor?.close(resolve));
  await dir?.cleanup();
});

const serveArgs = (...extra: string[]) => ['--data', dataDir, '--no-examples', '--port', '0', ...extra];

async function probe(url: string): Promise<Record<string, any>> {
  const response = await fetch(
    `${serve!.baseUrl}/api/integrations/test-egress-probe/actions/probe?accountId=${owner.accountId}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    },
  );
  const body = (await response.json()) as { ok: boolean; data?: Record<string, any> };
  if (!body.ok) throw new Error(`probe failed: ${response.status} ${JSON.stringify(body)}`);
  return body.data!;
}

const logLines = () =>
  serve!
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);

describe('serve refuses bad egress switches before it opens anything', { timeout: 60_000 }, () => {
  it('refuses loopback egress when NODE_ENV is production, by flag and by variable', async () => {
    const fresh = join(dir.path, 'never-created');
    const byFlag = await runBin(
      ['serve', '--data', fresh, '--no-examples', '--port', '0', '--allow-loopback-egress'],
      { env: childEnv({ NODE_ENV: 'production' }) },
    );
    expect(byFlag.code).toBe(1);
    expect(byFlag.stdout).toBe('');
    expect(byFlag.stderr).toContain(
      'error: Loopback egress (--allow-loopback-egress or PLATFORM_ALLOW_LOOPBACK_EGRESS=1) is refused when NODE_ENV is production',
    );
    expect(byFlag.stderr).toContain(
      'hint: Drop --allow-loopback-egress and PLATFORM_ALLOW_LOOPBACK_EGRESS in production',
    );
    const byVariable = await runBin(['serve', '--data', fresh, '--no-examples', '--port', '0'], {
      env: childEnv({ NODE_ENV: 'production', PLATFORM_ALLOW_LOOPBACK_EGRESS: '1' }),
    });
    expect(byVariable.code).toBe(1);
    expect(byVariable.stderr).toContain('is refused when NODE_ENV is production');
    // Nothing was claimed or created.
    expect(existsSync(fresh)).toBe(false);

    const unclear = await runBin(['serve', '--data', fresh, '--no-examples', '--port', '0'], {
      env: childEnv({ PLATFORM_ALLOW_LOOPBACK_EGRESS: 'yes' }),
    });
    expect(unclear.code).toBe(2);
    expect(unclear.stderr).toContain(
      'error: PLATFORM_ALLOW_LOOPBACK_EGRESS is "yes"; it takes 1 (on) or 0 (off).',
    );
    expect(existsSync(fresh)).toBe(false);
  });

  it('fails at start on a missing, non-PEM or private-key CA file, naming the file and the fix', async () => {
    const fresh = join(dir.path, 'never-created');
    const notPem = join(dir.path, 'not-a-cert.txt');
    await writeFile(notPem, 'this is not a certificate\n');
    const withKey = join(dir.path, 'with-key.pem');
    const { key, cert } = await loopbackCertificate();
    await writeFile(withKey, `${cert}\n${key}`);
    const start = (ca: string) =>
      runBin(['serve', '--data', fresh, '--no-examples', '--port', '0', '--egress-ca', ca]);

    const missing = await start(join(dir.path, 'nowhere.pem'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`error: No egress CA file ${join(dir.path, 'nowhere.pem')}.`);
    expect(missing.stderr).toContain(
      'hint: Pass --egress-ca (or PLATFORM_EGRESS_CA) a readable file of PEM CA certificates',
    );
    const garbage = await start(notPem);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toContain(`error: The egress CA file ${notPem} holds no PEM certificate.`);
    const keyed = await start(withKey);
    expect(keyed.code).toBe(1);
    expect(keyed.stderr).toContain(`error: The egress CA file ${withKey} holds a private key.`);
    expect(keyed.stderr).not.toContain('PRIVATE KEY');
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('serve with a fake vendor on loopback', { timeout: 90_000 }, () => {
  afterEach(async () => {
    await serve?.stop();
    serve = undefined;
  });

  it('--allow-loopback-egress --egress-ca: warns loudly, reaches the vendor, and opens loopback only', async () => {
    serve = await startServe(
      serveArgs('--allow-loopback-egress', '--egress-ca', caFile),
      childEnv({ PLATFORM_RUNNERS: '1' }),
    );
    expect(serve.banner).toContain(
      '!!! WARNING: loopback egress is ALLOWED (--allow-loopback-egress): integrations can reach services on this machine (127.0.0.0/8, ::1); for local development and tests only !!!',
    );
    expect(serve.banner).toContain(
      `  egress:   public addresses and LOOPBACK; 1 CA certificate from ${caFile} added to the default trust`,
    );
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        level: 40,
        egress: 'loopback',
        msg: expect.stringContaining('loopback egress is ALLOWED'),
      }),
    );

    expect(await probe(`${vendorOrigin}/hello?x=1`)).toEqual({
      status: 200,
      body: JSON.stringify({ path: '/hello?x=1', hello: 'from the fake vendor' }),
    });
    // Other private ranges stay closed, even listed in egress.
    const privateRange = await probe(`${PRIVATE_ORIGIN}/`);
    expect(privateRange.refused).toMatchObject({ reason: 'private-address' });
    expect(privateRange.refused.message).toContain('10.0.0.1 is not a public address (private)');
    // Egress origins still apply: another loopback port is not the vendor's origin.
    const otherPort = await probe('https://127.0.0.1:1/');
    expect(otherPort.refused.message).toContain(
      "https://127.0.0.1:1 is not in this integration's egress; add it to egress in the definition",
    );
  });

  it('PLATFORM_ALLOW_LOOPBACK_EGRESS=1 without the CA: the vendor is reached but its certificate is not trusted', async () => {
    serve = await startServe(
      serveArgs(),
      childEnv({ PLATFORM_RUNNERS: '1', PLATFORM_ALLOW_LOOPBACK_EGRESS: '1' }),
    );
    expect(serve.banner).toContain('!!! WARNING: loopback egress is ALLOWED');
    expect(serve.banner).toContain('  egress:   public addresses and LOOPBACK\n');
    const untrusted = await probe(`${vendorOrigin}/hello`);
    expect(untrusted.failed).toMatch(
      /^the request to https:\/\/127\.0\.0\.1:\d+\/hello failed: .*certificate/,
    );
  });

  it('PLATFORM_EGRESS_CA without the switch: the loopback vendor is refused as a private address', async () => {
    serve = await startServe(serveArgs(), childEnv({ PLATFORM_RUNNERS: '1', PLATFORM_EGRESS_CA: caFile }));
    expect(serve.banner).not.toContain('WARNING');
    expect(serve.banner).toContain(
      `  egress:   public addresses only; 1 CA certificate from ${caFile} added`,
    );
    const refused = await probe(`${vendorOrigin}/hello`);
    expect(refused.refused).toMatchObject({ reason: 'private-address' });
    expect(refused.refused.message).toContain('127.0.0.1 is not a public address (loopback)');
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        event: 'security',
        kind: 'egress_private_address',
        integration: 'test-egress-probe',
      }),
    );
  });
});
