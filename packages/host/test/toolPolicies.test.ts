// An account's tool policies: set by owners and admins through the API the web app uses and
// through `platform-host admin tool policy`, read by every member; names are the effective ones.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/Command.js';
import { migrateDatabase } from '../src/cli/migrate.js';
import { runCli } from '../src/cli/runCli.js';
import { tempDir } from './_cli.js';
import { FIXTURES, startTestHost, type TestHost } from './_host.js';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({ projects: ['tools'] });
});
afterAll(() => host.close());

const tools = (accountId = host.accountId) => `/api/platform/accounts/${accountId}/tools`;
const policy = (tool: string) => `${tools()}/${tool}/policy`;

describe('tool policies over the API', () => {
  it('lists the tools models see, with effect, sensitivity, policy and whether a call asks', async () => {
    const response = await host.call(tools());
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { tools: Record<string, unknown>[] } };
    expect(data.tools.find((tool) => tool.name === 'test_tools_add_note')).toEqual({
      name: 'test_tools_add_note',
      integration: 'test-tools',
      version: 1,
      description: 'Adds a note to the account',
      effect: 'write',
      sensitivity: 'low',
      policy: 'ask',
      asks: true,
    });
    expect(data.tools.find((tool) => tool.name === 'test_tools_search_notes')).toMatchObject({ asks: false });
  });

  it('sets a policy as an owner; a member may read but not set', async () => {
    const set = await host.call(policy('test_tools_add_note'), { method: 'PUT', json: { policy: 'allow' } });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ data: { policy: 'allow', asks: false } });
    const member = await host.addUser('member');
    const asMember = { authorization: `Bearer ${member.token}` };
    expect((await host.call(tools(), { headers: asMember })).status).toBe(200);
    const refused = await host.call(policy('test_tools_add_note'), {
      method: 'PUT',
      json: { policy: 'block' },
      headers: asMember,
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('answers a bad body, an unknown tool and a foreign account with their codes', async () => {
    const bad = await host.call(policy('test_tools_add_note'), {
      method: 'PUT',
      json: { policy: 'sometimes' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_input' } });
    const unknown = await host.call(policy('test_tools_nope'), { method: 'PUT', json: { policy: 'allow' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'tool_not_found' } });
    const foreign = await host.call(tools('someone-elses'));
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: { code: 'account_not_found' } });
  });
});

describe('platform-host admin tool policy', { timeout: 120_000 }, () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  const io = (): CliIo => ({ cwd: root.path, env: {}, readStdin: async () => '' });
  const run = async (...argv: string[]) => {
    const outcome = await runCli([...argv, '--data', 'data', '--json'], io());
    if (outcome.kind !== 'exit') throw new Error('expected a one-shot command');
    return { exitCode: outcome.exitCode, body: JSON.parse(outcome.stdout || outcome.stderr) };
  };
  beforeAll(async () => {
    root = await tempDir('admin-tool-policy');
    await migrateDatabase({ dataDir: join(root.path, 'data') });
  }, 120_000);
  afterAll(() => root.cleanup());

  it('sets a policy by effective name, and refuses a name the account has no tool for', async () => {
    expect((await run('install', join(FIXTURES, 'tools'))).exitCode).toBe(0);
    expect((await run('admin', 'account', 'create', '--slug', 'acme', '--name', 'Acme')).exitCode).toBe(0);
    expect((await run('admin', 'user', 'create', '--email', 'o@example.test', '--name', 'O')).exitCode).toBe(
      0,
    );
    expect(
      (
        await run(
          'admin',
          'member',
          'add',
          '--account',
          'acme',
          '--email',
          'o@example.test',
          '--role',
          'owner',
        )
      ).exitCode,
    ).toBe(0);
    // Installed projects come from the `local` source, which must serve the account (tenancy).
    expect(
      (await run('admin', 'source-account', 'add', '--source', 'local', '--account', 'acme')).exitCode,
    ).toBe(0);
    expect(
      (await run('admin', 'activation', 'add', '--integration', 'test-tools', '--account', 'acme')).exitCode,
    ).toBe(0);
    const set = await run(
      'admin',
      'tool',
      'policy',
      '--account',
      'acme',
      '--tool',
      'test_tools_delete_notes',
      '--policy',
      'block',
    );
    expect(set).toMatchObject({
      exitCode: 0,
      body: { ok: true, data: { tool: 'test_tools_delete_notes', effect: 'destructive', policy: 'block' } },
    });
    const unknown = await run(
      'admin',
      'tool',
      'policy',
      '--account',
      'acme',
      '--tool',
      'delete_notes',
      '--policy',
      'allow',
    );
    expect(unknown.exitCode).not.toBe(0);
    expect(JSON.stringify(unknown.body)).toContain('test_tools_delete_notes');
  });
});
