import { readdirSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHost } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAddActivation,
  adminAddMember,
  adminAddSeat,
  adminAddSourceAccount,
  adminCreateAccount,
  adminCreateSource,
  adminCreateToken,
  adminCreateUser,
  adminSetSecret,
} from '../src/cli/admin.js';
import { CliError } from '../src/cli/CliError.js';
import type { CliIo } from '../src/cli/Command.js';
import { installIntegrations } from '../src/cli/install.js';
import { migrateDatabase } from '../src/cli/migrate.js';
import { runCli } from '../src/cli/runCli.js';
import { type RunningServer, serve } from '../src/cli/serve.js';
import { serveBanner } from '../src/cli/serveCommand.js';
import { childEnv, fetchCurl, parseCurl, REPO_ROOT, runBin, shellCurl, startServe, tempDir } from './_cli.js';
import { FIXTURES } from './_host.js';

const MIGRATION_FILES = readdirSync(new URL('../migrations/', import.meta.url))
  .filter((name) => name.endsWith('.sql'))
  .sort();

const silent = pino({ level: 'silent' });
const EXAMPLES = join(REPO_ROOT, 'examples');

// Creating a PGlite database (initdb) is the slow part of every test here; it runs once, into a
// template that each test copies.
let root: Awaited<ReturnType<typeof tempDir>>;
let template: { dataDir: string; migrated: Awaited<ReturnType<typeof migrateDatabase>> };
beforeAll(async () => {
  root = await tempDir('cli');
  const dataDir = join(root.path, 'template');
  template = { dataDir, migrated: await migrateDatabase({ dataDir }) };
}, 120_000);
afterAll(() => root.cleanup());

/** A migrated, empty data folder of its own. */
async function dataFolder(name: string): Promise<string> {
  const dataDir = join(root.path, name);
  await cp(template.dataDir, dataDir, { recursive: true });
  return dataDir;
}

async function rejection(promise: Promise<unknown>): Promise<CliError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof CliError)) throw new Error(`expected a CliError, got ${String(error)}`);
  return error;
}

/** Counts rows on a stopped host's data folder. */
async function count(dataDir: string, table: string): Promise<number> {
  const host = await createHost({ dataDir, logger: silent });
  try {
    const { rows } = await host.db.query(`SELECT count(*)::int AS n FROM ${table}`);
    return rows[0]!.n as number;
  } finally {
    await host.close();
  }
}

describe('platform-host commands in process', { timeout: 60_000 }, () => {
  const dir = { path: '' };
  let data: { dataDir: string; logger: typeof silent };
  beforeAll(async () => {
    dir.path = join(root.path, 'commands');
    await mkdir(dir.path);
    data = { dataDir: await dataFolder('commands-data'), logger: silent };
  });

  it('lists the commands with --help and refuses an unknown one with a hint', async () => {
    const io: CliIo = { cwd: dir.path, env: {}, readStdin: async () => '' };
    const help = await runCli(['--help'], io);
    expect(help).toMatchObject({ kind: 'exit', exitCode: 0 });
    for (const words of ['serve', 'migrate', 'install', 'admin secret set', 'admin token create']) {
      expect(help.kind === 'exit' && help.stdout).toContain(words);
    }
    const unknown = await runCli(['admin', 'user', 'delete', '--json'], io);
    expect(unknown.kind === 'exit' && JSON.parse(unknown.stdout)).toEqual({
      ok: false,
      error: {
        code: 'usage',
        message: 'Unknown command "admin user delete".',
        hint: 'Run `platform-host admin user --help` to list the commands.',
      },
    });
    const badOption = await runCli(['migrate', '--port', '1'], io);
    expect(badOption).toMatchObject({ kind: 'exit', exitCode: 2 });
    expect(badOption.kind === 'exit' && badOption.stderr).toMatch(
      /^error: Unknown option '--port'\.\nhint: Run `platform-host migrate --help`/,
    );
  });

  it('migrates once, then says the schema is current', async () => {
    expect(template.migrated).toEqual({
      engine: 'pglite',
      // Every file of the migrations folder, in order: a new migration needs no edit here.
      applied: MIGRATION_FILES,
    });
    expect(MIGRATION_FILES.slice(0, 1)).toEqual(['0001_init.sql']);
    expect(MIGRATION_FILES).toContain('0015_source_accounts.sql');
    expect(await migrateDatabase(data)).toEqual({ engine: 'pglite', applied: [] });
    const io: CliIo = { cwd: root.path, env: {}, readStdin: async () => '' };
    const outcome = await runCli(['migrate', '--data', 'commands-data'], io);
    expect(outcome).toEqual({
      kind: 'exit',
      exitCode: 0,
      stdout: 'PGlite: schema is current, no migration applied.\n',
      stderr: '',
    });
  });

  it('installs a project as a new dev version each time', async () => {
    const projectDir = join(FIXTURES, 'notes');
    expect(await installIntegrations({ ...data, projectDir })).toEqual({
      source: { slug: 'local', stage: 'development' },
      installed: [{ slug: 'test-notes', version: 1 }],
    });
    expect((await installIntegrations({ ...data, projectDir })).installed).toEqual([
      { slug: 'test-notes', version: 2 },
    ]);
  });

  it('refuses a folder without platform.json, an unknown or production source, and an invalid definition', async () => {
    const missing = await rejection(installIntegrations({ ...data, projectDir: dir.path }));
    expect(missing).toMatchObject({ code: 'invalid_project', message: `No platform.json in ${dir.path}.` });
    expect(missing.hint).toMatch(/^Point install at a partner project folder/);

    const unknown = await rejection(
      installIntegrations({ ...data, projectDir: join(FIXTURES, 'notes'), sourceSlug: 'nope' }),
    );
    expect(unknown).toMatchObject({ code: 'not_found', message: 'No source "nope".' });
    expect(unknown.hint).toContain('platform-host admin source create --slug nope');

    await adminCreateSource({ ...data, slug: 'prod', name: 'Production', stage: 'production' });
    const production = await rejection(
      installIntegrations({ ...data, projectDir: join(FIXTURES, 'notes'), sourceSlug: 'prod' }),
    );
    expect(production).toMatchObject({ code: 'refused' });
    expect(production.message).toContain('production source');

    const broken = join(dir.path, 'broken');
    await mkdir(broken);
    await writeFile(
      join(broken, 'platform.json'),
      JSON.stringify({ integrations: [{ slug: 'Bad_Slug', entry: 'integration.js' }] }),
    );
    await writeFile(
      join(broken, 'integration.js'),
      "export default { slug: 'Bad_Slug', schedules: [{ id: 'nightly', cron: '* * *', handler() {} }] };\n",
    );
    const invalid = await rejection(installIntegrations({ ...data, projectDir: broken }));
    expect(invalid.code).toBe('invalid_definition');
    expect(invalid.message.split('\n')[0]).toBe('Integration definition "Bad_Slug" is invalid (2 problems):');
    expect(invalid.message).toMatch(/^ {2}slug: /m);
    expect(invalid.message).toMatch(/^ {2}schedules\[nightly\]: invalid cron "\* \* \*"/m);
  });

  it('creates users, accounts, memberships, sources, seats and tokens, with clear errors for unknown entities', async () => {
    const user = await adminCreateUser({ ...data, email: 'Ada@Example.test', name: 'Ada', password: 'pw-1' });
    expect(user).toMatchObject({ email: 'ada@example.test', name: 'Ada', isPlatformAdmin: false });
    expect(
      await rejection(adminCreateUser({ ...data, email: 'ada@example.test', name: 'Again' })),
    ).toMatchObject({ code: 'conflict' });
    expect(await rejection(adminCreateUser({ ...data, email: 'not-an-email', name: 'X' }))).toMatchObject({
      code: 'usage',
    });

    expect(await adminCreateAccount({ ...data, slug: 'acme', name: 'Acme' })).toMatchObject({
      slug: 'acme',
      name: 'Acme',
    });
    expect(await rejection(adminCreateAccount({ ...data, slug: 'Acme Inc', name: 'x' }))).toMatchObject({
      code: 'usage',
    });
    const noAccount = await rejection(
      adminAddMember({ ...data, account: 'globex', email: 'ada@example.test', role: 'owner' }),
    );
    expect(noAccount).toMatchObject({ code: 'not_found', message: 'No account "globex" (by id or slug).' });
    expect(noAccount.hint).toBe(
      'Check the id or slug, or create it with `platform-host admin account create --slug globex --name <name>`.',
    );
    const noUser = await rejection(
      adminAddMember({ ...data, account: 'acme', email: 'bob@example.test', role: 'owner' }),
    );
    expect(noUser).toMatchObject({ code: 'not_found', message: 'No user with email bob@example.test.' });
    expect(
      await adminAddMember({ ...data, account: 'acme', email: 'ada@example.test', role: 'owner' }),
    ).toMatchObject({
      account: 'acme',
      role: 'owner',
    });

    await adminCreateSource({ ...data, slug: 'acme-dev', name: 'Acme dev', stage: 'development' });
    expect(
      await adminAddSeat({ ...data, source: 'acme-dev', email: 'ada@example.test', role: 'publisher' }),
    ).toEqual({
      source: 'acme-dev',
      email: 'ada@example.test',
      role: 'publisher',
    });
    expect(
      await rejection(adminAddSeat({ ...data, source: 'nope', email: 'ada@example.test', role: 'owner' })),
    ).toMatchObject({
      code: 'not_found',
    });
    expect(await adminAddSourceAccount({ ...data, source: 'acme-dev', account: 'acme' })).toEqual({
      source: 'acme-dev',
      account: 'acme',
    });

    const now = new Date('2030-01-01T00:00:00Z');
    const token = await adminCreateToken({
      ...data,
      email: 'ada@example.test',
      name: 'ci',
      expiresDays: 30,
      now,
    });
    expect(token).toMatchObject({
      email: 'ada@example.test',
      name: 'ci',
      expiresAt: '2030-01-31T00:00:00.000Z',
    });
    expect(token.token).toMatch(/^plt_[\w-]{43}$/);
  });

  it('sets admin-tier secrets that integrations read, refuses the account tier, and activates', async () => {
    const refused = await rejection(
      adminSetSecret({
        ...data,
        integration: 'test-notes',
        tier: 'account',
        name: 'ACCESS_TOKEN',
        value: 'v',
      }),
    );
    expect(refused).toMatchObject({ code: 'refused' });
    expect(refused.hint).toContain('ctx.secrets.set');
    expect(
      await rejection(
        adminSetSecret({ ...data, integration: 'nope', tier: 'global', name: 'X', value: 'v' }),
      ),
    ).toMatchObject({
      code: 'not_found',
      message: 'No integration "nope" on this host.',
    });
    expect(
      await adminSetSecret({
        ...data,
        integration: 'test-notes',
        tier: 'global',
        name: 'API_KEY',
        value: 'global-v',
      }),
    ).toEqual({
      integration: 'test-notes',
      tier: 'global',
      name: 'API_KEY',
    });
    expect(
      await adminSetSecret({
        ...data,
        integration: 'test-notes',
        tier: 'source',
        name: 'API_KEY',
        value: 'source-v',
      }),
    ).toEqual({
      integration: 'test-notes',
      tier: 'source',
      source: 'local',
      name: 'API_KEY',
    });
    // test-notes is on source local, which does not serve acme yet: refused, naming the fix.
    await expect(
      adminAddActivation({ ...data, integration: 'test-notes', account: 'acme' }),
    ).rejects.toMatchObject({
      code: 'refused',
      hint: expect.stringContaining('`platform-host admin source-account add --source local --account acme`'),
    });
    await adminAddSourceAccount({ ...data, source: 'local', account: 'acme' });
    const activation = await adminAddActivation({ ...data, integration: 'test-notes', account: 'acme' });
    expect(activation).toMatchObject({
      integration: 'test-notes',
      account: 'acme',
      version: 2,
      activatedBy: 'ada@example.test',
      created: true,
    });
    expect(activation.onActivate).toEqual({ ok: true });
    expect(await adminAddActivation({ ...data, integration: 'test-notes', account: 'acme' })).toMatchObject({
      created: false,
    });

    // The integration sees the source tier before the global one, through the real action route.
    const { token } = await adminCreateToken({ ...data, email: 'ada@example.test' });
    const host = await createHost({ dataDir: data.dataDir, logger: silent });
    try {
      const account = (await host.db.query("SELECT id FROM accounts WHERE slug = 'acme'")).rows[0]!
        .id as string;
      const response = await host.app.request(
        `/api/integrations/test-notes/actions/read-secret?accountId=${account}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'API_KEY' }),
        },
      );
      expect(await response.json()).toEqual({ ok: true, data: { value: 'source-v' } });
      const settings = await host.db.query(
        "SELECT value FROM storage WHERE integration_slug = 'test-notes' AND key = 'settings'",
      );
      expect(settings.rows[0]?.value).toEqual({ prefix: 'activated' });
    } finally {
      await host.close();
    }
  });
  it('maps command lines to the functions, in text and --json', async () => {
    const io: CliIo = { cwd: root.path, env: {}, readStdin: async () => 'from-stdin\n' };
    const cli = async (...argv: string[]) => {
      const outcome = await runCli([...argv, '--data', 'commands-data'], io);
      if (outcome.kind !== 'exit') throw new Error('expected a one-shot command');
      return outcome;
    };
    expect(await cli('install', join(FIXTURES, 'notes'))).toEqual({
      kind: 'exit',
      exitCode: 0,
      stdout: 'installed test-notes@3 (source local)\n',
      stderr: '',
    });
    const badRole = await cli(
      'admin',
      'member',
      'add',
      '--account',
      'acme',
      '--email',
      'ada@example.test',
      '--role',
      'boss',
      '--json',
    );
    expect(badRole.exitCode).toBe(2);
    expect(JSON.parse(badRole.stdout).error).toMatchObject({
      code: 'usage',
      message: '--role must be one of owner, admin, member; got "boss".',
    });
    const missing = await cli('admin', 'account', 'create', '--slug', 'globex');
    expect(missing).toMatchObject({ exitCode: 2, stdout: '' });
    expect(missing.stderr).toBe(
      'error: Missing --name.\nhint: Add --name <value> (`platform-host admin account create --help` lists the options).\n',
    );
    const both = await cli(
      'admin',
      'secret',
      'set',
      '--integration',
      'test-notes',
      '--tier',
      'global',
      '--name',
      'K',
      '--value',
      'v',
      '--value-stdin',
    );
    expect(both.stderr).toContain('Pass --value or --value-stdin, not both.');
    const stdin = await cli(
      'admin',
      'secret',
      'set',
      '--integration',
      'test-notes',
      '--tier',
      'global',
      '--name',
      'K',
      '--value-stdin',
    );
    expect(stdin).toMatchObject({ exitCode: 0, stdout: 'set global-tier secret K for test-notes\n' });
    const help = await cli('admin', 'secret', 'set', '--help');
    expect(help.stdout).toContain('--value-stdin');
    expect(help.stdout).toContain('Account-tier secrets are refused');
    const token = await cli('admin', 'token', 'create', '--email', 'ada@example.test', '--expires-days', '0');
    expect(token.stderr).toContain('--expires-days must be a whole number from 1 to 3650; got "0".');
  });
});

describe('serve in process', { timeout: 60_000 }, () => {
  let running: RunningServer | undefined;
  afterAll(async () => {
    await running?.close();
  });

  it('seeds once, answers the printed request, and installs an example again only when its bundle changed', async () => {
    const dataDir = await dataFolder('serve-data');
    running = await serve({ dataDir, port: 0, examplesDir: EXAMPLES, logger: silent });
    expect(running.demo).toMatchObject({ created: true, email: 'demo@platform.local', accountSlug: 'demo' });
    expect(running.demo.password).toMatch(/^[\w-]{16}$/);
    expect(running.examples).toEqual([
      {
        project: join(EXAMPLES, 'acme-notes'),
        integrations: [{ slug: 'acme-notes', version: 1, firstInstall: true }],
        installed: true,
      },
      {
        project: join(EXAMPLES, 'acme-status'),
        integrations: [{ slug: 'acme-status', version: 1, firstInstall: true }],
        installed: true,
      },
    ]);
    const demo = running.demo;
    for (const file of [demo.tokenFile, demo.accountFile, demo.passwordFile!]) {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    }
    expect(await readFile(demo.passwordFile!, 'utf8')).toBe(`${demo.password}\n`);
    expect(await readFile(demo.accountFile, 'utf8')).toBe(`${demo.accountId}\n`);
    // The printed line reads the token and the account id from their files.
    expect(running.tryIt.curl).toBe(
      `curl -sS -X POST "${running.url}/api/integrations/acme-notes/actions/add-note?accountId=$(cat ${demo.accountFile})" -H "Authorization: Bearer $(cat ${demo.tokenFile})" -H 'Content-Type: application/json' -d '{"title":"Hello from curl"}'`,
    );
    const banner = serveBanner(running, root.path);
    for (const value of [demo.token, demo.accountId, demo.password!]) expect(banner).not.toContain(value);
    expect(banner).toContain('password in serve-data/demo-password (generated on this first start)');
    expect(banner).toContain('Demo account: demo  (id in serve-data/demo-account)');
    expect(banner).toContain('Demo token:   in serve-data/demo-token  (mode 0600)');
    expect(banner).toContain('Try it from this directory (acme-notes add-note');
    // As pasted, with the paths relative to the directory the banner was printed for.
    const line = banner
      .split('\n')
      .find((text) => text.trim().startsWith('curl '))!
      .trim();
    expect(line).toContain('"Authorization: Bearer $(cat serve-data/demo-token)"');
    const pasted = await shellCurl(line, root.path);
    expect(JSON.parse(pasted.stdout)).toMatchObject({ ok: true, data: { title: 'Hello from curl' } });
    const { url, init } = parseCurl(running.tryIt.curl);
    const first = await fetch(url, init);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      ok: true,
      data: { title: 'Hello from curl', folder: 'inbox', origin: 'local' },
    });
    // onActivate ran at seeding: default settings are there.
    const settings = await running.host.db.query(
      "SELECT value FROM storage WHERE integration_slug = 'acme-notes' AND key = 'settings'",
    );
    expect(settings.rows[0]?.value).toEqual({ defaultFolder: 'inbox', syncEnabled: true });
    const token = running.demo.token;
    // Pretend the live version was built from older sources.
    await running.host.db.query("UPDATE versions SET bundle = bundle || '\n// older build'");
    await running.close();
    // Files left readable by others (an older host, a copy) are narrowed again at the next start.
    for (const file of [demo.tokenFile, demo.accountFile, demo.passwordFile!]) await chmod(file, 0o644);

    running = await serve({ dataDir, port: 0, examplesDir: EXAMPLES, logger: silent });
    expect(running.demo).toMatchObject({ created: false, password: undefined, token, tokenReissued: false });
    for (const file of [demo.tokenFile, demo.accountFile, demo.passwordFile!]) {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    }
    expect(serveBanner(running, root.path)).toContain(
      'Demo user:    demo@platform.local  password in serve-data/demo-password\n',
    );
    expect(running.examples[0]).toMatchObject({
      integrations: [{ slug: 'acme-notes', version: 2, firstInstall: false }],
      installed: true,
    });
    await running.close();

    running = await serve({ dataDir, port: 0, examplesDir: EXAMPLES, logger: silent });
    expect(running.examples[0]).toMatchObject({
      integrations: [{ slug: 'acme-notes', version: 2 }],
      installed: false,
    });
    const rows = await running.host.db.query(
      'SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM accounts)::int AS accounts, (SELECT count(*) FROM sessions)::int AS tokens, (SELECT count(*) FROM activations)::int AS activations',
    );
    // Both examples (acme-notes, acme-status), activated once each.
    expect(rows.rows[0]).toEqual({ users: 1, accounts: 1, tokens: 1, activations: 2 });
    await running.close();
    running = undefined;
  }, 60_000);

  it('refuses a second process on the same PGlite folder', async () => {
    // Without examples first; the next test installs the fixtures into the same folder.
    const dataDir = await dataFolder('serve-second');
    running = await serve({ dataDir, port: 0, examplesDir: null, logger: silent });
    const busy = await rejection(adminCreateAccount({ dataDir, logger: silent, slug: 'x', name: 'X' }));
    expect(busy).toMatchObject({ code: 'data_dir_busy' });
    expect(busy.hint).toContain(`kill -TERM ${process.pid}`);
    const nope = join(root.path, 'nope');
    const noExamples = await rejection(serve({ dataDir, port: 0, examplesDir: nope, logger: silent }));
    expect(noExamples).toMatchObject({ code: 'not_found', message: `No examples folder ${nope}.` });
    // No example: the printed request is one that needs none.
    expect(running.tryIt).toMatchObject({ method: 'GET', url: `${running.url}/api/platform/me` });
    const me = await fetchCurl(running.tryIt.curl);
    expect(await me.json()).toMatchObject({ ok: true, data: { user: { email: 'demo@platform.local' } } });
    await running.close();
    running = undefined;
    expect(await adminCreateAccount({ dataDir, logger: silent, slug: 'x', name: 'X' })).toMatchObject({
      slug: 'x',
    });
  }, 60_000);

  it('lets an in-flight request finish on close, and cuts one off at the bound', async () => {
    const dataDir = join(root.path, 'serve-second');
    running = await serve({
      dataDir,
      port: 0,
      examplesDir: FIXTURES,
      logger: silent,
      shutdownTimeoutMs: 300,
    });
    const call = (ms: number) =>
      fetch(`${running!.url}/api/integrations/test-notes/actions/slow?accountId=${running!.demo.accountId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${running!.demo.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
    const quick = call(150);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await running.close();
    expect(await (await quick).json()).toEqual({ ok: true, data: { slept: 150 } });
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();

    running = await serve({
      dataDir,
      port: 0,
      examplesDir: FIXTURES,
      logger: silent,
      shutdownTimeoutMs: 300,
    });
    const tooSlow = call(3000).then(
      (response) => response.status,
      () => 'cut off',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await running.close();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await tooSlow).toBe('cut off');
    running = undefined;
  }, 60_000);
});

describe('the platform-host bin', { timeout: 60_000 }, () => {
  let binData: string;
  beforeAll(async () => {
    binData = await dataFolder('bin-data');
  });

  it('prints help for each level', async () => {
    const top = await runBin(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('admin source-account add');
  }, 60_000);

  it('installs with --json, printing the envelope alone', async () => {
    const data = binData;
    const installed = await runBin(['install', join(FIXTURES, 'notes'), '--data', data, '--json']);
    expect(installed.code).toBe(0);
    expect(JSON.parse(installed.stdout)).toEqual({
      ok: true,
      data: {
        source: { slug: 'local', stage: 'development' },
        installed: [{ slug: 'test-notes', version: 1 }],
      },
    });
    const missing = await runBin(['install', root.path, '--data', data, '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, error: { code: 'invalid_project' } });
    expect(Object.keys(JSON.parse(missing.stdout).error).sort()).toEqual(['code', 'hint', 'message']);
  }, 60_000);

  it('runs admin commands with --json, never echoing a secret value', async () => {
    const data = binData;
    const admin = (args: string[], stdin?: string) =>
      runBin(['admin', ...args, '--data', data, '--json'], stdin === undefined ? {} : { stdin });
    const account = await admin(['account', 'create', '--slug', 'acme', '--name', 'Acme']);
    expect(account.code).toBe(0);
    expect(JSON.parse(account.stdout)).toMatchObject({ ok: true, data: { slug: 'acme', name: 'Acme' } });
    const unknown = await admin([
      'member',
      'add',
      '--account',
      'globex',
      '--email',
      'a@b.test',
      '--role',
      'owner',
    ]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({
      ok: false,
      error: {
        code: 'not_found',
        message: 'No account "globex" (by id or slug).',
        hint: 'Check the id or slug, or create it with `platform-host admin account create --slug globex --name <name>`.',
      },
    });

    const secret = await admin(
      [
        'secret',
        'set',
        '--integration',
        'test-notes',
        '--tier',
        'global',
        '--name',
        'API_KEY',
        '--value-stdin',
      ],
      'sk-very-secret\n',
    );
    expect(secret.code).toBe(0);
    expect(JSON.parse(secret.stdout)).toEqual({
      ok: true,
      data: { integration: 'test-notes', tier: 'global', name: 'API_KEY' },
    });
    expect(secret.stdout + secret.stderr).not.toContain('sk-very-secret');
  }, 60_000);

  it('serves: the printed curl works as pasted, SIGTERM exits 0 in time, a restart re-seeds nothing', async () => {
    const data = await dataFolder('bin-serve');
    // Info level: every request line is in the output, which must hold no credential.
    const server = await startServe(['--port', '0', '--data', data, '--examples', EXAMPLES], childEnv());
    let stopped = false;
    const token = () => readFileSync(join(data, 'demo-token'), 'utf8').trim();
    const accountId = readFileSync(join(data, 'demo-account'), 'utf8').trim();
    const password = readFileSync(join(data, 'demo-password'), 'utf8').trim();
    const firstToken = token();
    try {
      expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.banner).toContain(
        `password in ${join(data, 'demo-password')} (generated on this first start)`,
      );
      expect(server.curl).toBe(
        `curl -sS -X POST "${server.baseUrl}/api/integrations/acme-notes/actions/add-note?accountId=$(cat ${join(data, 'demo-account')})" -H "Authorization: Bearer $(cat ${join(data, 'demo-token')})" -H 'Content-Type: application/json' -d '{"title":"Hello from curl"}'`,
      );
      const pasted = await shellCurl(server.curl);
      expect(JSON.parse(pasted.stdout)).toMatchObject({ ok: true, data: { title: 'Hello from curl' } });
      // Query strings that carry codes and states are logged as `?...` too.
      const callback = await fetch(
        `${server.baseUrl}/api/integrations/acme-notes/oauth/callback?code=c0de-never-logged&state=st4te-never-logged`,
        { redirect: 'manual' },
      );
      expect(callback.status).toBe(302);
      const exit = await server.stop('SIGTERM');
      stopped = true;
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.ms).toBeLessThan(10_000);
    } finally {
      if (!stopped) await server.stop('SIGKILL');
    }
    const output = server.output();
    expect(output).toContain('"msg":"request"');
    expect(output).toContain('/actions/add-note?...');
    expect(output).toContain('"kind":"oauth_state"');
    for (const value of [firstToken, accountId, password, 'c0de-never-logged', 'st4te-never-logged']) {
      expect(output).not.toContain(value);
    }
    expect(output).not.toMatch(/accountId=[^$?&\s"]/);
    expect(output).not.toMatch(/Bearer [^$\s]/);

    const again = await startServe(
      ['--port', '0', '--data', data, '--examples', EXAMPLES],
      childEnv({ LOG_LEVEL: 'warn' }),
    );
    try {
      expect(again.banner).toContain(`password in ${join(data, 'demo-password')}\n`);
      expect(again.banner).not.toContain('generated on this first start');
      expect(token()).toBe(firstToken);
      expect(again.banner).toContain('acme-notes@1, acme-status@1\n');
      const response = await fetchCurl(again.curl);
      expect((await response.json()).ok).toBe(true);
    } finally {
      expect((await again.stop('SIGINT')).code).toBe(0);
    }
    expect(again.output()).not.toContain(firstToken);
    expect(await count(data, 'users')).toBe(1);
    expect(await count(data, 'versions')).toBe(2); // one per example
    expect(await count(data, 'sessions')).toBe(1);
  }, 120_000);
});
