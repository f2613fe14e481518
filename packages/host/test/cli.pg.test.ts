import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCreateAccount, adminSetSecret } from '../src/cli/admin.js';
import type { CliError } from '../src/cli/CliError.js';
import { type RunningServer, serve } from '../src/cli/serve.js';
import { childEnv, fetchCurl, REPO_ROOT, runBin, startServe, tempDir } from './_cli.js';
import { FIXTURES, pgSchema } from './_host.js';
import { testDatabase } from './_postgres.js';

const { url, skipped } = testDatabase();
const silent = pino({ level: 'silent' });
const EXAMPLES = join(REPO_ROOT, 'examples');
// Instances sharing one database must share the key that encrypts secrets.
const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

describe.skipIf(!url)(
  `platform-host on PostgreSQL${url ? '' : ` (skipped: ${skipped})`}`,
  { timeout: 120_000 },
  () => {
    let schema: Awaited<ReturnType<typeof pgSchema>>;
    let dir: Awaited<ReturnType<typeof tempDir>>;
    const running: RunningServer[] = [];
    beforeAll(async () => {
      schema = await pgSchema(url!, 'cli');
      dir = await tempDir('cli-pg');
    });
    afterAll(async () => {
      for (const server of running) await server.close();
      await schema?.drop();
      await dir?.cleanup();
    });

    it('serves from DATABASE_URL: the printed curl works, SIGTERM exits 0, a restart re-seeds nothing', async () => {
      const data = join(dir.path, 'first');
      const env = childEnv({ DATABASE_URL: schema.url, PLATFORM_SECRET_KEY: SECRET_KEY, LOG_LEVEL: 'warn' });
      const first = await startServe(['--port', '0', '--data', data, '--examples', EXAMPLES], env);
      try {
        expect(first.banner).toContain('database: PostgreSQL (DATABASE_URL)');
        expect(first.banner).toContain(
          `password in ${join(data, 'demo-password')} (generated on this first start)`,
        );
        expect(await (await fetchCurl(first.curl)).json()).toMatchObject({
          ok: true,
          data: { title: 'Hello from curl' },
        });
        // PostgreSQL serves many processes: no PGlite and no lock in the data folder, only the demo token.
        expect(existsSync(join(data, 'db'))).toBe(false);
        expect(existsSync(join(data, 'host.lock'))).toBe(false);
        // The demo's files live in the data folder with PostgreSQL too (created if missing).
        for (const file of ['demo-token', 'demo-account', 'demo-password']) {
          expect((await stat(join(data, file))).mode & 0o777).toBe(0o600);
        }
        expect(first.curl).toContain(`"Authorization: Bearer $(cat ${join(data, 'demo-token')})"`);
        expect(first.output()).not.toContain(readFileSync(join(data, 'demo-token'), 'utf8').trim());
      } finally {
        expect((await first.stop('SIGTERM')).code).toBe(0);
      }
      const again = await startServe(['--port', '0', '--data', data, '--examples', EXAMPLES], env);
      try {
        expect(again.banner).not.toContain('generated on this first start');
        expect(again.banner).toContain(`password in ${join(data, 'demo-password')}\n`);
        expect((await (await fetchCurl(again.curl)).json()).ok).toBe(true);
      } finally {
        expect((await again.stop('SIGTERM')).code).toBe(0);
      }
    });

    it('runs a second instance on the same database without seeding again', async () => {
      const options = {
        databaseUrl: schema.url,
        env: { PLATFORM_SECRET_KEY: SECRET_KEY },
        logger: silent,
        port: 0,
        examplesDir: EXAMPLES,
      };
      const a = await serve({ ...options, dataDir: join(dir.path, 'first') });
      running.push(a);
      const b = await serve({ ...options, dataDir: join(dir.path, 'second') });
      running.push(b);
      expect(a.demo).toMatchObject({ created: false, tokenReissued: false });
      // The second folder has no saved token: it gets its own, for the same demo user.
      expect(b.demo).toMatchObject({
        created: false,
        tokenReissued: true,
        userId: a.demo.userId,
        accountId: a.demo.accountId,
      });
      // Its folder never saw the first start's password: the banner says where that went.
      expect(b.demo.passwordFile).toBeUndefined();
      expect(b.examples[0]).toMatchObject({
        installed: false,
        integrations: [{ slug: 'acme-notes', version: 1 }],
      });
      for (const server of [a, b]) expect((await (await fetchCurl(server.tryIt.curl)).json()).ok).toBe(true);
      const { rows } = await a.host.db.query(
        "SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM accounts WHERE slug = 'demo')::int AS accounts, (SELECT count(*) FROM versions)::int AS versions",
      );
      expect(rows[0]).toEqual({ users: 1, accounts: 1, versions: 2 }); // one per example
    });

    it('runs one-shot commands against DATABASE_URL while servers are up', async () => {
      const account = await adminCreateAccount({
        dataDir: join(dir.path, 'first'),
        databaseUrl: schema.url,
        logger: silent,
        slug: 'acme',
        name: 'Acme',
      });
      expect(account).toMatchObject({ slug: 'acme' });
      const installed = await runBin(
        ['install', join(FIXTURES, 'notes'), '--data', join(dir.path, 'cli'), '--json'],
        {
          env: childEnv({ DATABASE_URL: schema.url, PLATFORM_SECRET_KEY: SECRET_KEY }),
        },
      );
      expect(JSON.parse(installed.stdout)).toEqual({
        ok: true,
        data: {
          source: { slug: 'local', stage: 'development' },
          installed: [{ slug: 'test-notes', version: 1 }],
        },
      });

      // A secret set with a key no host uses could never be read: refused without the shared key.
      const secret = {
        databaseUrl: schema.url,
        logger: silent,
        integration: 'test-notes',
        tier: 'global',
        name: 'K',
        value: 'v',
      };
      const noKey = join(dir.path, 'no-key');
      const refused = await adminSetSecret({ ...secret, dataDir: noKey, env: {} }).catch(
        (error: CliError) => error,
      );
      expect(refused).toMatchObject({ code: 'refused' });
      expect((refused as CliError).hint).toContain('PLATFORM_SECRET_KEY');
      const stored = await adminSetSecret({
        ...secret,
        dataDir: noKey,
        env: { PLATFORM_SECRET_KEY: SECRET_KEY },
      });
      expect(stored).toMatchObject({ tier: 'global' });
    });
  },
);
