import { existsSync } from 'node:fs';
import { lstat, readFile, stat } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { createHost } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/Command.js';
import { runCli } from '../src/cli/runCli.js';
import { serve } from '../src/cli/serve.js';
import { type BinResult, childEnv, REPO_ROOT, runBin, startServe, tempDir } from './_cli.js';
import { FIXTURES } from './_host.js';

// `platform-host admin ...` and `install` while `serve` holds a PGlite folder: they run inside the
// serve through its admin channel (`<data>/admin.sock`), with the one-shot command's output.

const silent = pino({ level: 'silent' });
const PASSWORD = 'correct horse battery staple';

let root: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  root = await tempDir('admin-serving');
});
afterAll(() => root.cleanup());

const admin = (data: string, args: readonly string[], stdin?: string) =>
  runBin(['admin', ...args, '--data', data, '--json'], stdin === undefined ? {} : { stdin });

/** The envelope of a `--json` run, with the exit code checked against it. */
function envelope(result: BinResult, exitCode: number): { ok: boolean; data?: unknown; error?: unknown } {
  expect(result.code, result.stdout + result.stderr).toBe(exitCode);
  expect(result.stderr).toBe('');
  expect(result.stdout.endsWith('}\n')).toBe(true);
  return JSON.parse(result.stdout);
}

/** Keys and value types, not values: what must match between a run through serve and a direct one. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, inner]) => [key, shapeOf(inner)]),
    );
  }
  return value === null ? 'null' : typeof value;
}

async function count(dataDir: string, sql: string): Promise<number> {
  const host = await createHost({ dataDir, logger: silent, runtime: 'in-process' });
  try {
    const { rows } = await host.db.query<{ n: number }>(sql);
    return rows[0]!.n;
  } finally {
    await host.close();
  }
}

describe('admin commands while serve runs on PGlite', { timeout: 480_000 }, () => {
  it('run inside the running serve with the one-shot output; after a stop they run directly again', async () => {
    const data = join(root.path, 'live');
    const server = await startServe(
      ['--data', data, '--port', '0', '--no-examples'],
      childEnv({ LOG_LEVEL: 'info' }),
    );
    const socket = join(data, 'admin.sock');
    let viaServe: { user: unknown; conflict: string; text: string };
    let stopped = false;
    try {
      expect((await lstat(socket)).isSocket()).toBe(true);
      expect((await stat(socket)).mode & 0o777).toBe(0o600);

      // At once: the serve answers each on its own connection.
      const [user, account, installed] = await Promise.all([
        admin(
          data,
          ['user', 'create', '--email', 'ops@acme.test', '--name', 'Ops', '--password-stdin'],
          PASSWORD,
        ),
        admin(data, ['account', 'create', '--slug', 'acme', '--name', 'Acme']),
        runBin(['install', join(FIXTURES, 'notes'), '--data', data, '--json']),
      ]);
      const userEnvelope = envelope(user, 0);
      expect(userEnvelope).toEqual({
        ok: true,
        data: { id: expect.any(String), email: 'ops@acme.test', name: 'Ops', isPlatformAdmin: false },
      });
      const accountEnvelope = envelope(account, 0);
      expect(accountEnvelope).toMatchObject({ ok: true, data: { slug: 'acme', name: 'Acme' } });
      expect(envelope(installed, 0)).toEqual({
        ok: true,
        data: {
          source: { slug: 'local', stage: 'development' },
          installed: [{ slug: 'test-notes', version: 1 }],
        },
      });

      const secret = await admin(
        data,
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
        'sk-never-printed\n',
      );
      expect(envelope(secret, 0)).toEqual({
        ok: true,
        data: { integration: 'test-notes', tier: 'global', name: 'API_KEY' },
      });

      // The write landed in the live database: the new user signs in through the running server.
      const signIn = await fetch(`${server.baseUrl}/api/platform/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ops@acme.test', password: PASSWORD }),
      });
      expect(signIn.status).toBe(200);
      expect(await signIn.json()).toMatchObject({ ok: true, data: { user: { email: 'ops@acme.test' } } });

      // Failures too: the envelope and exit code of the command, and text mode's lines.
      const conflict = await admin(data, ['user', 'create', '--email', 'ops@acme.test', '--name', 'Ops']);
      expect(envelope(conflict, 1)).toMatchObject({ ok: false, error: { code: 'conflict' } });
      const text = await runBin([
        'admin',
        'account',
        'create',
        '--slug',
        'acme',
        '--name',
        'Acme',
        '--data',
        data,
      ]);
      expect(text.code).toBe(1);
      expect(text.stdout).toBe('');
      expect(text.stderr).toMatch(/^error: Account "acme" already exists\.\nhint: .+\n$/);
      const usage = await admin(data, ['member', 'add', '--account', 'acme', '--email', 'ops@acme.test']);
      expect(envelope(usage, 2)).toMatchObject({
        ok: false,
        error: { code: 'usage', message: 'Missing --role.' },
      });

      // migrate is refused while serving: serve migrated at start.
      const migrate = await runBin(['migrate', '--data', data, '--json']);
      expect(envelope(migrate, 1)).toMatchObject({ ok: false, error: { code: 'data_dir_busy' } });
      expect(migrate.stdout).toContain('applied the migrations when it started');

      viaServe = {
        user: userEnvelope,
        conflict: conflict.stdout,
        text: text.stderr,
      };
      const exit = await server.stop('SIGTERM');
      stopped = true;
      expect(exit).toMatchObject({ code: 0, signal: null });
    } finally {
      if (!stopped) await server.stop('SIGKILL');
    }
    // Serve's log names each command and its exit code, never a value.
    const output = server.output();
    expect(output).toContain('"command":"admin user create","exitCode":0,"msg":"admin command"');
    expect(output).toContain('"command":"admin secret set","exitCode":0');
    for (const value of [PASSWORD, 'sk-never-printed']) expect(output).not.toContain(value);

    expect(existsSync(socket)).toBe(false);
    expect(existsSync(join(data, 'host.lock'))).toBe(false);
    // Directly against the folder now, with the same output as through serve.
    const user = await admin(data, ['user', 'create', '--email', 'dev@acme.test', '--name', 'Dev']);
    expect(shapeOf(envelope(user, 0))).toEqual(shapeOf(viaServe.user));
    const conflict = await admin(data, ['user', 'create', '--email', 'ops@acme.test', '--name', 'Ops']);
    expect(conflict.stdout).toBe(viaServe.conflict);
    const text = await runBin([
      'admin',
      'account',
      'create',
      '--slug',
      'acme',
      '--name',
      'Acme',
      '--data',
      data,
    ]);
    expect(text.stderr).toBe(viaServe.text);
    expect(
      await count(
        data,
        "SELECT (SELECT count(*) FROM users)::int + (SELECT count(*) FROM secrets WHERE name = 'API_KEY')::int AS n",
      ),
    ).toBe(3 + 1);
  });

  it('a serve killed with SIGKILL breaks neither the next command nor the next serve', async () => {
    const data = join(root.path, 'killed');
    const env = childEnv({ LOG_LEVEL: 'info', PLATFORM_RUNTIME: 'in-process' });
    const first = await startServe(['--data', data, '--port', '0', '--no-examples'], env);
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');
    // Left behind: the lock of a dead process and a socket nobody listens on.
    expect((await lstat(join(data, 'admin.sock'))).isSocket()).toBe(true);
    expect(existsSync(join(data, 'host.lock'))).toBe(true);

    const direct = await admin(data, ['account', 'create', '--slug', 'acme', '--name', 'Acme']);
    expect(envelope(direct, 0)).toMatchObject({ ok: true, data: { slug: 'acme' } });

    const second = await startServe(['--data', data, '--port', '0', '--no-examples'], env);
    try {
      expect(second.output()).toContain('replacing the admin socket left by a serve that did not shut down');
      expect((await stat(join(data, 'admin.sock'))).mode & 0o777).toBe(0o600);
      const served = await admin(data, ['account', 'create', '--slug', 'globex', '--name', 'Globex']);
      expect(envelope(served, 0)).toMatchObject({ ok: true, data: { slug: 'globex' } });
      expect(second.output()).toContain('"command":"admin account create","exitCode":0');
    } finally {
      expect((await second.stop('SIGTERM')).code).toBe(0);
    }
    expect(existsSync(join(data, 'admin.sock'))).toBe(false);
  });
});

/** One raw request line on the channel, and the raw answer. */
function rawRequest(path: string, line: string): Promise<string> {
  return new Promise((resolveAnswer, reject) => {
    const socket = createConnection(path, () => socket.write(line));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolveAnswer(answer));
    socket.on('error', reject);
  });
}

describe('the admin channel in process', { timeout: 240_000 }, () => {
  it('runs only the commands that go through serve, and answers a bad request with a usage error', async () => {
    const dataDir = join(root.path, 'in-process');
    const running = await serve({
      dataDir,
      port: 0,
      examplesDir: null,
      logger: silent,
      env: { PLATFORM_RUNTIME: 'in-process' },
    });
    try {
      const io: CliIo = { cwd: REPO_ROOT, env: {}, readStdin: async () => PASSWORD, logger: silent };
      // runCli finds the lock held by a live serve (this process) and sends the command to it.
      const outcome = await runCli(
        [
          'admin',
          'user',
          'create',
          '--email',
          'a@acme.test',
          '--name',
          'A',
          '--password-stdin',
          '--data',
          dataDir,
        ],
        io,
      );
      expect(outcome).toMatchObject({ kind: 'exit', exitCode: 0, stderr: '' });
      expect((outcome as { stdout: string }).stdout).toMatch(/^created user a@acme\.test \(\S+\)\n$/);
      const { rows } = await running.host.db.query(
        "SELECT count(*)::int AS n FROM users WHERE email = 'a@acme.test'",
      );
      expect(rows[0]).toEqual({ n: 1 });

      const path = join(dataDir, 'admin.sock');
      const answer = (line: string) => rawRequest(path, line).then((text) => JSON.parse(text));
      expect(await answer('not json\n')).toMatchObject({ exitCode: 2, stdout: '' });
      expect(
        await answer(`${JSON.stringify({ argv: ['admin', 'deliveries', 'list'], cwd: 'relative' })}\n`),
      ).toMatchObject({
        exitCode: 2,
      });
      // Neither a second serve nor a migration runs inside serve.
      const second = await answer(`${JSON.stringify({ argv: ['serve', '--port', '0'], cwd: REPO_ROOT })}\n`);
      expect(second).toMatchObject({ exitCode: 1, stdout: '' });
      expect(second.stderr).toContain("does not run through serve's admin channel");
      const migrate = await answer(`${JSON.stringify({ argv: ['migrate', '--json'], cwd: REPO_ROOT })}\n`);
      expect(JSON.parse(migrate.stdout)).toMatchObject({ ok: false, error: { code: 'refused' } });
      const list = await answer(
        `${JSON.stringify({ argv: ['admin', 'deliveries', 'list', '--json'], cwd: REPO_ROOT })}\n`,
      );
      expect(list).toEqual({
        exitCode: 0,
        stdout: `${JSON.stringify({ ok: true, data: { entries: [] } })}\n`,
        stderr: '',
      });
    } finally {
      await running.close();
    }
    expect(existsSync(join(dataDir, 'admin.sock'))).toBe(false);
    expect(await readFile(join(dataDir, 'demo-account'), 'utf8')).not.toBe('');
  });
});
