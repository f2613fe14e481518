import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/Command.js';
import { migrateDatabase } from '../src/cli/migrate.js';
import { runCli } from '../src/cli/runCli.js';
import { tempDir } from './_cli.js';

// `platform-host admin ... --account A` takes the account's id or its slug.
let root: Awaited<ReturnType<typeof tempDir>>;
const io = (): CliIo => ({ cwd: root.path, env: {}, readStdin: async () => '' });
const admin = async (...argv: string[]) => {
  const outcome = await runCli(['admin', ...argv, '--data', 'data', '--json'], io());
  if (outcome.kind !== 'exit') throw new Error('expected a one-shot command');
  return { exitCode: outcome.exitCode, body: JSON.parse(outcome.stdout) };
};

beforeAll(async () => {
  root = await tempDir('admin-account-ref');
  await migrateDatabase({ dataDir: join(root.path, 'data') });
}, 120_000);
afterAll(() => root.cleanup());

describe('admin commands name an account by id or slug', { timeout: 60_000 }, () => {
  let accountId: string;

  it('creates the account and its users', async () => {
    const account = await admin('account', 'create', '--slug', 'alice-co', '--name', 'Alice Co');
    expect(account.exitCode).toBe(0);
    accountId = account.body.data.id;
    for (const email of ['alice@example.test', 'bob@example.test']) {
      expect((await admin('user', 'create', '--email', email, '--name', email)).exitCode).toBe(0);
    }
  });

  it('adds a member by slug and by id, to the same account', async () => {
    const bySlug = await admin(
      'member',
      'add',
      '--account',
      'alice-co',
      '--email',
      'alice@example.test',
      '--role',
      'owner',
    );
    expect(bySlug).toEqual({
      exitCode: 0,
      body: {
        ok: true,
        data: { account: 'alice-co', accountId, email: 'alice@example.test', role: 'owner' },
      },
    });
    const byId = await admin(
      'member',
      'add',
      '--account',
      accountId,
      '--email',
      'bob@example.test',
      '--role',
      'admin',
    );
    expect(byId).toEqual({
      exitCode: 0,
      body: { ok: true, data: { account: 'alice-co', accountId, email: 'bob@example.test', role: 'admin' } },
    });
  });

  it('lists deliveries by id and by slug', async () => {
    for (const account of [accountId, 'alice-co']) {
      expect(await admin('deliveries', 'list', '--account', account)).toEqual({
        exitCode: 0,
        body: { ok: true, data: { entries: [] } },
      });
    }
  });

  it('says which account was not found, by id or slug, with a fix', async () => {
    expect(await admin('deliveries', 'list', '--account', 'alice-corp')).toEqual({
      exitCode: 1,
      body: {
        ok: false,
        error: {
          code: 'not_found',
          message: 'No account "alice-corp" (by id or slug).',
          hint: 'Check the id or slug, or create it with `platform-host admin account create --slug alice-corp --name <name>`.',
        },
      },
    });
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const byId = await admin('deliveries', 'list', '--account', unknownId);
    expect(byId.body.error).toEqual({
      code: 'not_found',
      message: `No account "${unknownId}" (by id or slug).`,
      hint: 'Check the id or slug (`platform-host admin account create` prints both), or create the account with `platform-host admin account create --slug <slug> --name <name>`.',
    });
  });

  it('refuses a slug shaped like an id, which would be ambiguous', async () => {
    const refused = await admin('account', 'create', '--slug', accountId, '--name', 'Impostor');
    expect(refused.exitCode).toBe(2);
    expect(refused.body.error).toMatchObject({ code: 'usage' });
    expect(refused.body.error.message).toContain('has the shape of an id');
  });
});
