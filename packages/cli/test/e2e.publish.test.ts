// The publish pipeline end to end, as a partner and an operator use it: a real `platform-host
// serve` on PostgreSQL, `platform login` through the device flow (the test approves it on the
// host as the signed-in user would), a project made by `platform init` and installed from the
// host's registry, `publish` -> `status --watch` -> an action call on the promoted version; a second
// version widening egress ends `gated`, shows the widening in the review, is promoted and serves
// the next call. A project with a type error, a host-rules violation and a failing test ends
// `rejected` (exit 10) on PostgreSQL and on PGlite; a host killed during a check still delivers
// the verdict through another instance.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, runBin, type ServeProcess, startServe } from '../../host/test/_cli.js';
import { pgSchema } from '../../host/test/_host.js';
import { testDatabase } from '../../host/test/_postgres.js';
import { note, npmInstall, packWorkspacePackages, registryStatus, scaffoldAgainstRegistry } from './_e2e.js';
import { CLI_BIN, cleanEnv, envelopeOf, run } from './_helpers.js';

const registry = await registryStatus();
const database = testDatabase();
const skipReason = !registry.reachable
  ? registry.reason
  : database.skipped !== undefined
    ? database.skipped
    : undefined;
if (skipReason !== undefined) note(`publish end-to-end test skipped: ${skipReason}.`);

const PASSWORD = 'correct horse battery';
const SECRET_KEY = randomBytes(32).toString('hex');

interface Stack {
  root: string;
  registryDir: string;
  app: string;
  configDir: string;
}

/** `platform <args>` (the repo's built CLI) in the project, with the test's config folder. */
const platform = (stack: Stack, args: readonly string[], timeoutMs = 60_000) =>
  run(args, { cwd: stack.app, env: cleanEnv({ PLATFORM_CONFIG_DIR: stack.configDir }), timeoutMs });

/** `platform-host admin ...` against the serve's database (its admin channel with PGlite). */
async function admin(dataDir: string, env: NodeJS.ProcessEnv, args: readonly string[]): Promise<any> {
  const result = await runBin(['admin', ...args, '--data', dataDir, '--json'], { env });
  if (result.code !== 0)
    throw new Error(`platform-host admin ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout).data;
}

/**
 * `platform login --host` through the device flow: reads the code the CLI prints, signs in on the
 * host as the user would on its page (session cookie), approves it there, and waits for the CLI.
 */
async function deviceLogin(stack: Stack, baseUrl: string, email: string): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [CLI_BIN, 'login', '--host', baseUrl], {
    cwd: stack.app,
    env: cleanEnv({ PLATFORM_CONFIG_DIR: stack.configDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    let userCode: string | undefined;
    for (let i = 0; i < 300 && userCode === undefined; i++) {
      userCode = /shows the code (\S+?)\.?\n/.exec(output)?.[1];
      if (userCode === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (userCode === undefined) throw new Error(`platform login printed no code:\n${output}`);
    const signIn = await fetch(`${baseUrl}/api/platform/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const approve = await fetch(`${baseUrl}/api/platform/device/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, cookie },
      body: JSON.stringify({ user_code: userCode, decision: 'approve' }),
    });
    expect(approve.status, await approve.clone().text()).toBe(200);
    expect(await exited, output).toBe(0);
  } finally {
    child.kill();
  }
}

/** Replaces `from` in a project file, failing when it is not there. */
function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${from} not found in ${file}`);
  writeFileSync(file, next);
}

const ABOUT = (version: number) =>
  `actions: {\n    about: {\n      description: 'Which version of the integration runs',\n      input: z.object({}),\n      handler: async () => ({ version: ${version} }),\n    },`;

async function publishAndWatch(
  stack: Stack,
): Promise<{ versionId: string; watch: Awaited<ReturnType<typeof run>> }> {
  const published = await platform(stack, ['publish', '--json'], 120_000);
  expect(published.code, published.stdout + published.stderr).toBe(0);
  const versionId = envelopeOf<{ versions: { id: string }[] }>(published).data!.versions[0]!.id;
  const watch = await platform(stack, ['status', '--watch', '--json'], 600_000);
  return { versionId, watch };
}

/** Makes the scaffold fail the gate three ways at once, none of which `validate` sees. */
function breakProject(app: string, slug: string): void {
  // The host forces `strict`: an implicit any passes the project's own tsconfig, not the host's.
  edit(join(app, 'tsconfig.json'), /"strict":\s*true/, '"strict": false');
  writeFileSync(
    join(app, 'src', slug, 'loose.ts'),
    'export function loose(value) {\n  return value;\n}\n\nexport const count: number = "three";\n',
  );
  writeFileSync(
    join(app, 'src', slug, 'broken.test.ts'),
    "import { expect, it } from 'vitest';\n\nit('adds up', () => {\n  expect(1 + 1).toBe(3);\n});\n",
  );
}

function expectRejection(watch: Awaited<ReturnType<typeof run>>): void {
  expect(watch.code, watch.stdout + watch.stderr).toBe(10);
  const envelope = envelopeOf(watch);
  expect(envelope.error?.code).toBe('gate_failed');
  const text = JSON.stringify(envelope);
  expect(text).toContain('checks/typecheck');
  expect(text).toContain('project.host-compiler-rules');
  expect(text).toContain('checks/tests');
}

describe.skipIf(skipReason !== undefined)('publish pipeline end to end', () => {
  const stack = {} as Stack;
  let schema: { url: string; drop(): Promise<void> };
  let host: ServeProcess | undefined;
  let hostEnv: NodeJS.ProcessEnv;
  let dataDir: string;
  let slug: string;
  let accountId: string;
  let bearer: string;

  beforeAll(async () => {
    stack.root = mkdtempSync(join(tmpdir(), 'platform-e2e-publish-'));
    stack.registryDir = join(stack.root, 'registry');
    stack.configDir = join(stack.root, 'config');
    dataDir = join(stack.root, 'data');
    schema = await pgSchema(database.url!, 'publish');
    // Both instances serve (and the gate installs from) the same packed tarballs.
    packWorkspacePackages(stack.registryDir);
    hostEnv = childEnv({
      DATABASE_URL: schema.url,
      PLATFORM_SECRET_KEY: SECRET_KEY,
      PLATFORM_REGISTRY_DIR: stack.registryDir,
      PLATFORM_JOB_LEASE_MS: '3000',
    });
    host = await startServe(['--data', dataDir, '--port', '0', '--no-examples'], hostEnv);
    stack.app = await scaffoldAgainstRegistry(stack.root, host.baseUrl);
    slug = JSON.parse(readFileSync(join(stack.app, 'platform.json'), 'utf8')).integrations[0].slug;
    edit(join(stack.app, 'src', slug, 'integration.ts'), 'actions: {', ABOUT(1));
    await npmInstall(stack.app);

    await admin(dataDir, hostEnv, [
      'user',
      'create',
      '--email',
      'dev@acme.test',
      '--name',
      'Dev',
      '--password',
      PASSWORD,
    ]);
    await admin(dataDir, hostEnv, [
      'source',
      'create',
      '--slug',
      'acme',
      '--name',
      'Acme',
      '--stage',
      'production',
    ]);
    await admin(dataDir, hostEnv, [
      'seat',
      'add',
      '--source',
      'acme',
      '--email',
      'dev@acme.test',
      '--role',
      'publisher',
    ]);
    accountId = (
      await admin(dataDir, hostEnv, ['account', 'create', '--slug', 'customer', '--name', 'Customer'])
    ).id;
    // The source serves the account, or its integrations can be neither activated nor called there.
    await admin(dataDir, hostEnv, ['source-account', 'add', '--source', 'acme', '--account', 'customer']);
    await admin(dataDir, hostEnv, [
      'member',
      'add',
      '--account',
      'customer',
      '--email',
      'dev@acme.test',
      '--role',
      'owner',
    ]);
    bearer = (
      await admin(dataDir, hostEnv, ['token', 'create', '--email', 'dev@acme.test', '--name', 'calls'])
    ).token;
  }, 900_000);

  afterAll(async () => {
    await host?.stop();
    await schema?.drop();
    if (stack.root !== undefined) rmSync(stack.root, { recursive: true, force: true });
  });

  const callAbout = async () => {
    const response = await fetch(
      `${host!.baseUrl}/api/integrations/${slug}/actions/about?accountId=${accountId}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({}),
      },
    );
    return {
      status: response.status,
      body: (await response.json()) as { ok: boolean; data?: { version: number } },
    };
  };
  // `admin` runs in its own process on PostgreSQL: the serving host sees its change through the
  // call cache's epoch poll, within the cache's bound (1 s; README "Call cache and rate limits"), not at once.
  const versionServedOnceSeen = async (version: number) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const answer = await callAbout();
      if (answer.body.data?.version === version || Date.now() > deadline) return answer.body.data;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('signs in through the device flow and stores the session 0600', async () => {
    await deviceLogin(stack, host!.baseUrl, 'dev@acme.test');
    const file = join(stack.configDir, 'platform', 'hosts.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const used = await platform(stack, ['use', 'acme', '--json']);
    expect(used.code, used.stderr).toBe(0);
    const sources = await platform(stack, ['sources', '--json']);
    expect(JSON.stringify(envelopeOf(sources).data)).toContain('publisher');
  }, 120_000);

  it('publishes, watches the gate pass (gated), promotes, and serves an action call', async () => {
    const { versionId, watch } = await publishAndWatch(stack);
    expect(watch.code, watch.stdout + watch.stderr).toBe(0);
    expect(JSON.stringify(envelopeOf(watch).data)).toContain('gated');
    const review = await admin(dataDir, hostEnv, ['version', 'review', versionId]);
    expect(review.review.againstVersion).toBeNull();
    await admin(dataDir, hostEnv, ['version', 'promote', versionId]);
    await admin(dataDir, hostEnv, [
      'activation',
      'add',
      '--integration',
      slug,
      '--account',
      'customer',
      '--email',
      'dev@acme.test',
    ]);
    expect(await callAbout()).toEqual({ status: 200, body: { ok: true, data: { version: 1 } } });
  }, 900_000);

  it('gates a version widening egress, shows the widening in the review, and serves it once promoted', async () => {
    const entry = join(stack.app, 'src', slug, 'integration.ts');
    edit(entry, 'handler: async () => ({ version: 1 })', 'handler: async () => ({ version: 2 })');
    edit(entry, 'egress: [API],', "egress: [API, 'https://api.widened.example'],");
    const { versionId, watch } = await publishAndWatch(stack);
    expect(watch.code, watch.stdout + watch.stderr).toBe(0);
    const queue = await admin(dataDir, hostEnv, ['version', 'list']);
    const pending = queue.versions.find((version: { id: string }) => version.id === versionId);
    expect(pending.review.egress.added).toEqual(['https://api.widened.example']);
    expect(pending.review.widens).toBe(true);
    // Still v1 until promoted.
    expect((await callAbout()).body.data).toEqual({ version: 1 });
    await admin(dataDir, hostEnv, ['version', 'promote', versionId]);
    expect(await versionServedOnceSeen(2)).toEqual({ version: 2 });
    // Rollback is one command.
    await admin(dataDir, hostEnv, ['integration', 'rollback', slug]);
    expect(await versionServedOnceSeen(1)).toEqual({ version: 1 });
  }, 900_000);

  it('rejects a project with a type error, a host-rules violation and a failing test (exit 10)', async () => {
    const broken = { ...stack, app: join(stack.root, 'broken') };
    cpSync(stack.app, broken.app, { recursive: true });
    breakProject(broken.app, slug);
    const { watch } = await publishAndWatch(broken);
    expectRejection(watch);
  }, 900_000);

  it('still delivers the verdict when the host checking it is killed mid-check', async () => {
    const second = await startServe(
      ['--data', join(stack.root, 'data-2'), '--port', '0', '--no-examples'],
      hostEnv,
    );
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      const entry = join(stack.app, 'src', slug, 'integration.ts');
      edit(entry, 'handler: async () => ({ version: 2 })', 'handler: async () => ({ version: 3 })');
      const published = await platform(stack, ['publish', '--json'], 120_000);
      expect(published.code, published.stderr).toBe(0);
      // Wait for an instance to claim the gate job, then kill that instance outright.
      let holder: string | undefined;
      for (let i = 0; i < 600 && holder === undefined; i++) {
        const { rows } = await client.query(
          `SELECT locked_by FROM jobs WHERE kind = 'gate' AND status = 'running' ORDER BY created_at DESC LIMIT 1`,
        );
        holder = rows[0]?.locked_by ?? undefined;
        if (holder === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(holder).toBeDefined();
      const pid = Number(holder!.split(':')[1]);
      const [victim, survivor] = pid === host!.child.pid ? [host!, second] : [second, host!];
      await victim.stop('SIGKILL');
      if (victim === host) host = survivor;
      note(
        `killed the instance running the gate (pid ${pid}); the other one takes the job when its lease ends`,
      );
      // Sessions are per host origin: sign in to the survivor with a token, as CI would.
      const login = await platform(stack, ['login', '--host', survivor.baseUrl, '--token', bearer, '--json']);
      expect(login.code, login.stderr).toBe(0);
      expect((await platform(stack, ['use', 'acme', '--json'])).code).toBe(0);
      const watch = await platform(stack, ['status', '--watch', '--json'], 600_000);
      expect(watch.code, watch.stdout + watch.stderr).toBe(0);
      const { rows } = await client.query(
        `SELECT attempts, status FROM jobs WHERE kind = 'gate' ORDER BY created_at DESC LIMIT 1`,
      );
      expect(rows[0]).toMatchObject({ status: 'succeeded' });
      expect(rows[0].attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await client.end();
      if (host !== second) await second.stop();
    }
  }, 900_000);
});

describe.skipIf(!registry.reachable)('publish pipeline on PGlite', () => {
  const stack = {} as Stack;
  let host: ServeProcess | undefined;

  beforeAll(async () => {
    stack.root = mkdtempSync(join(tmpdir(), 'platform-e2e-publish-pglite-'));
    stack.configDir = join(stack.root, 'config');
    const dataDir = join(stack.root, 'data');
    host = await startServe(['--data', dataDir, '--port', '0', '--no-examples'], childEnv());
    stack.app = await scaffoldAgainstRegistry(stack.root, host.baseUrl);
    await npmInstall(stack.app);
    const env = childEnv();
    await admin(dataDir, env, [
      'user',
      'create',
      '--email',
      'dev@acme.test',
      '--name',
      'Dev',
      '--password',
      PASSWORD,
    ]);
    await admin(dataDir, env, [
      'source',
      'create',
      '--slug',
      'acme-dev',
      '--name',
      'Acme dev',
      '--stage',
      'development',
    ]);
    await admin(dataDir, env, [
      'seat',
      'add',
      '--source',
      'acme-dev',
      '--email',
      'dev@acme.test',
      '--role',
      'owner',
    ]);
    const token = (
      await admin(dataDir, env, [
        'token',
        'create',
        '--email',
        'dev@acme.test',
        '--name',
        'ci',
        '--scope',
        'publish',
        '--scope',
        'read',
      ])
    ).token;
    const login = await platform(stack, ['login', '--host', host.baseUrl, '--token', token, '--json']);
    expect(login.code, login.stderr).toBe(0);
    expect((await platform(stack, ['use', 'acme-dev', '--json'])).code).toBe(0);
  }, 900_000);

  afterAll(async () => {
    await host?.stop();
    if (stack.root !== undefined) rmSync(stack.root, { recursive: true, force: true });
  });

  it('rejects the same broken project with exit 10', async () => {
    const slug = JSON.parse(readFileSync(join(stack.app, 'platform.json'), 'utf8')).integrations[0].slug;
    breakProject(stack.app, slug);
    const { watch } = await publishAndWatch(stack);
    expectRejection(watch);
  }, 900_000);
});
