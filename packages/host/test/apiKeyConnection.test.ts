import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installProject } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackCertificate } from '../../sdk/test/_tls.js';
import { adminSetConnection } from '../src/cli/adminConnection.js';
import { addSourceAccount, liveVersion, upsertActivation } from '../src/store/integrations.js';
import { readSecret } from '../src/store/secrets.js';
import { startTestHost, type TestHost } from './_host.js';

// The vendor: accepts `Token <key>` for the keys in `keys`, and Basic user:password in `logins`.
interface Vendor {
  readonly origin: string;
  readonly ca: string;
  readonly keys: Set<string>;
  readonly logins: Set<string>;
  /** The Authorization header of every request, in order. */
  readonly seen: (string | undefined)[];
  close(): Promise<void>;
}

async function startVendor(): Promise<Vendor> {
  const { key, cert } = await loopbackCertificate();
  const keys = new Set<string>();
  const logins = new Set<string>();
  const seen: (string | undefined)[] = [];
  const server: Server = createServer({ key, cert }, (request, response) => {
    const authorization = request.headers.authorization;
    seen.push(authorization);
    const token = /^Token (.+)$/.exec(authorization ?? '')?.[1];
    const basic = /^Basic (.+)$/.exec(authorization ?? '')?.[1];
    const login = basic === undefined ? undefined : Buffer.from(basic, 'base64').toString('utf8');
    const ok = (token !== undefined && keys.has(token)) || (login !== undefined && logins.has(login));
    response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    response.end(JSON.stringify(ok ? { user: 'acme-bot' } : { error: 'bad credentials' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ca: cert,
    keys,
    logins,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('connections of kind apiKey and basic', () => {
  let vendor: Vendor;
  let host: TestHost;
  const logs: string[] = [];
  const answers: string[] = [];
  let member: { token: string };

  beforeAll(async () => {
    vendor = await startVendor();
    host = await startTestHost({
      egress: { allowLoopback: true, ca: vendor.ca },
      logger: pino({ level: 'debug' }, { write: (line: string) => logs.push(line) }),
      projects: [],
    });
    const fixture = fileURLToPath(new URL('./fixtures/apikey/integration.ts', import.meta.url));
    const projectDir = await mkdtemp(join(tmpdir(), 'platform-apikey-'));
    try {
      const definitions = [
        { slug: 'key-vendor', origin: vendor.origin, kind: 'apiKey' },
        { slug: 'basic-vendor', origin: vendor.origin, kind: 'basic' },
      ];
      for (const definition of definitions) {
        await writeFile(
          join(projectDir, `${definition.slug}.ts`),
          `import { apiKeyFixture } from ${JSON.stringify(fixture)};\nexport default apiKeyFixture(${JSON.stringify(definition)});\n`,
        );
      }
      await writeFile(
        join(projectDir, 'platform.json'),
        JSON.stringify({ integrations: definitions.map(({ slug }) => ({ slug, entry: `${slug}.ts` })) }),
      );
      const { versions } = await installProject({ db: host.db, runtime: host.services.runtime, projectDir });
      for (const version of versions) {
        await addSourceAccount(host.db, version.sourceId, host.accountId);
        await upsertActivation(host.db, {
          slug: version.slug,
          accountId: host.accountId,
          userId: host.userId,
          data: null,
        });
      }
    } finally {
      await rm(projectDir, { recursive: true, force: true });
    }
    member = await host.addUser('member');
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await vendor?.close();
  });

  const path = (slug: string) => `/api/integrations/${slug}/connection?accountId=${host.accountId}`;
  async function answer(response: Response) {
    const text = await response.text();
    answers.push(text);
    return { status: response.status, body: JSON.parse(text) };
  }
  const put = async (slug: string, fields: Record<string, unknown>, token = host.token) =>
    answer(
      await host.call(path(slug), {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fields }),
      }),
    );
  const status = async (slug: string, token = host.token) =>
    answer(await host.call(path(slug), { headers: { authorization: `Bearer ${token}` } }));
  const act = async (slug: string, name: string) =>
    answer(
      await host.call(`/api/integrations/${slug}/actions/${name}?accountId=${host.accountId}`, { json: {} }),
    );
  async function stored(slug: string, name: string) {
    const version = await liveVersion(host.db, slug);
    return readSecret(
      host.db,
      host.services.secretBox,
      { slug, accountId: host.accountId, sourceId: version!.sourceId },
      name,
    );
  }

  it('answers what is set before anything is entered, and a call carries no Authorization', async () => {
    expect(await status('key-vendor')).toEqual({
      status: 200,
      body: {
        ok: true,
        data: {
          kind: 'apiKey',
          connected: false,
          fields: [
            { name: 'apiKey', label: 'API key', secret: true, set: false },
            { name: 'workspace', label: 'Workspace', secret: false, set: false },
          ],
        },
      },
    });
    expect((await act('key-vendor', 'whoami')).body.data).toEqual({
      status: 401,
      body: { error: 'bad credentials' },
    });
    expect(vendor.seen.at(-1)).toBeUndefined();
  });

  it('stores nothing when verify fails, and says why', async () => {
    const before = vendor.seen.length;
    const refused = await put('key-vendor', { apiKey: 'wrong-key-1', workspace: 'acme' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('verify_failed');
    expect(refused.body.error.status).toBe(401);
    expect(refused.body.error.message).toMatch(/answered 401.*Nothing was stored/);
    // The verify request went out with the header the template makes.
    expect(vendor.seen.slice(before)).toEqual(['Token wrong-key-1']);
    expect(await stored('key-vendor', 'apiKey')).toBeUndefined();
    expect(await stored('key-vendor', 'workspace')).toBeUndefined();
    expect((await status('key-vendor')).body.data.connected).toBe(false);
  });

  it('refuses missing, empty or undeclared fields before any verify', async () => {
    const before = vendor.seen.length;
    expect((await put('key-vendor', { apiKey: 'k' })).body.error.message).toBe(
      'fields.workspace: a non-empty string is required.',
    );
    expect((await put('key-vendor', { apiKey: 'k', workspace: 'w', other: 'x' })).status).toBe(400);
    expect((await put('key-vendor', { apiKey: '', workspace: 'w' })).status).toBe(400);
    expect(vendor.seen.length).toBe(before);
  });

  it('refuses a member; owners and admins set up the connection', async () => {
    vendor.keys.add('first-key-2');
    const refused = await put('key-vendor', { apiKey: 'first-key-2', workspace: 'acme' }, member.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect(await stored('key-vendor', 'apiKey')).toBeUndefined();
    // A member may read the status (no values in it).
    expect((await status('key-vendor', member.token)).status).toBe(200);
  });

  it('verifies, stores encrypted account secrets, answers which fields are set and when, never the values', async () => {
    const before = Date.now();
    const saved = await put('key-vendor', { apiKey: 'first-key-2', workspace: 'acme' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ kind: 'apiKey', connected: true, health: { state: 'healthy' } });
    for (const field of saved.body.data.fields) {
      expect(field.set).toBe(true);
      expect(Date.parse(field.updatedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(await stored('key-vendor', 'apiKey')).toBe('first-key-2');
    const { rows } = await host.db.query(
      `SELECT tier, ciphertext FROM secrets WHERE integration_slug = 'key-vendor' AND name = 'apiKey'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tier).toBe('account');
    expect(String(rows[0]!.ciphertext)).not.toContain('first-key-2');
    expect(JSON.stringify((await status('key-vendor')).body)).not.toContain('first-key-2');
  });

  it("an action's ctx.fetch carries the Authorization the template makes; ctx.secrets reads the field", async () => {
    const called = await act('key-vendor', 'whoami');
    expect(called.body).toEqual({ ok: true, data: { status: 200, body: { user: 'acme-bot' } } });
    expect(vendor.seen.at(-1)).toBe('Token first-key-2');
    expect((await act('key-vendor', 'has-key')).body.data).toEqual({ set: true });
  });

  it('rotates by the owner: a failed rotation keeps the old key, a verified one replaces it', async () => {
    const kept = await put('key-vendor', { apiKey: 'rotated-wrong-3', workspace: 'acme' });
    expect(kept.status).toBe(422);
    expect(await stored('key-vendor', 'apiKey')).toBe('first-key-2');

    vendor.keys.add('rotated-key-4');
    vendor.keys.delete('first-key-2');
    expect((await put('key-vendor', { apiKey: 'rotated-key-4', workspace: 'acme' })).status).toBe(200);
    expect(await stored('key-vendor', 'apiKey')).toBe('rotated-key-4');
    expect((await act('key-vendor', 'whoami')).body.data.status).toBe(200);
    expect(vendor.seen.at(-1)).toBe('Token rotated-key-4');
  });

  it('a basic connection sends Basic username:password for verify and for ctx.fetch', async () => {
    vendor.logins.add('bot:secret-pass-5');
    expect((await put('basic-vendor', { username: 'bot', password: 'wrong-pass-6' })).status).toBe(422);
    const saved = await put('basic-vendor', { username: 'bot', password: 'secret-pass-5' });
    expect(saved.status).toBe(200);
    expect(vendor.seen.at(-1)).toBe(`Basic ${Buffer.from('bot:secret-pass-5').toString('base64')}`);
    expect((await act('basic-vendor', 'whoami')).body.data.status).toBe(200);
    expect(vendor.seen.at(-1)).toBe(`Basic ${Buffer.from('bot:secret-pass-5').toString('base64')}`);
  });

  it('admin connection set verifies and stores; a secret field on argv is refused', async () => {
    const base = { dataDir: '', host, integration: 'key-vendor', account: host.accountId };
    await expect(
      adminSetConnection({ ...base, inline: ['apiKey=admin-key-7', 'workspace=acme'] }),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/secret on the command line/) });
    await expect(
      adminSetConnection({ ...base, inline: ['workspace=acme'], stdin: 'apiKey=admin-wrong-8\n' }),
    ).rejects.toMatchObject({ code: 'refused', message: expect.stringMatching(/answered 401/) });
    expect(await stored('key-vendor', 'apiKey')).toBe('rotated-key-4');
    vendor.keys.add('admin-key-7');
    expect(
      await adminSetConnection({ ...base, inline: ['workspace=acme'], stdin: 'apiKey=admin-key-7\n' }),
    ).toEqual({
      integration: 'key-vendor',
      account: expect.any(String),
      fields: ['workspace', 'apiKey'],
      verified: true,
    });
    expect(await stored('key-vendor', 'apiKey')).toBe('admin-key-7');
    expect(vendor.seen.at(-1)).toBe('Token admin-key-7');
  });

  it('answers 404 for an integration without a connection', async () => {
    expect((await status('no-such-integration')).status).toBe(404);
  });

  it('never logs or answers a secret value', () => {
    const text = `${logs.join('\n')}\n${answers.join('\n')}`;
    expect(logs.some((line) => line.includes('connection verified and stored'))).toBe(true);
    for (const secret of [
      'wrong-key-1',
      'first-key-2',
      'rotated-wrong-3',
      'rotated-key-4',
      'secret-pass-5',
      'wrong-pass-6',
      'admin-key-7',
      'admin-wrong-8',
      Buffer.from('bot:secret-pass-5').toString('base64'),
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
