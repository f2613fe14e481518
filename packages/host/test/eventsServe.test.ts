import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/Command.js';
import { runCli } from '../src/cli/runCli.js';
import { type RunningServer, serve } from '../src/cli/serve.js';
import { installProject } from '../src/install/installProject.js';
import { addSourceAccount, upsertActivation } from '../src/store/integrations.js';
import { tempDir } from './_cli.js';
import { FIXTURES } from './_host.js';

const silent = pino({ level: 'silent' });
const SLUG = 'test-events-load';

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('serve runs the job worker and the scheduler', { timeout: 60_000 }, () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let running: RunningServer | undefined;
  let dataDir: string;
  const send = (server: RunningServer, body: unknown) =>
    fetch(`${server.url}/api/integrations/${SLUG}/webhooks/tick?accountId=${server.demo.accountId}`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
  const statusOf = async (server: RunningServer, n: number) =>
    (
      await server.host.db.query(
        "SELECT status FROM jobs WHERE body::jsonb->>'n' = $1 ORDER BY created_at DESC LIMIT 1",
        [String(n)],
      )
    ).rows[0]?.status as string | undefined;

  beforeAll(async () => {
    root = await tempDir('events-serve');
    dataDir = join(root.path, 'data');
    running = await serve({ dataDir, port: 0, examplesDir: null, logger: silent, shutdownTimeoutMs: 10_000 });
    const { host, demo } = running;
    const { source } = await installProject({
      db: host.db,
      runtime: host.services.runtime,
      projectDir: join(FIXTURES, 'events-load'),
    });
    // Served first: activation requires a source that serves the account.
    await addSourceAccount(host.db, source.id, demo.accountId);
    await upsertActivation(host.db, {
      slug: SLUG,
      accountId: demo.accountId,
      userId: demo.userId,
      data: null,
    });
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    await root?.cleanup();
  });

  it('processes a delivery in the background, and drains in-flight jobs on close within the bound', async () => {
    const server = running!;
    expect((await send(server, { n: 1 })).status).toBe(202);
    await until(async () => (await statusOf(server, 1)) === 'succeeded');

    // One job still sleeping when the stop is asked for: it finishes within the bound.
    expect((await send(server, { n: 2, sleepMs: 400 })).status).toBe(202);
    await until(async () => (await statusOf(server, 2)) === 'running');
    const started = performance.now();
    await server.close();
    running = undefined;
    expect(performance.now() - started).toBeLessThan(10_000);

    const io: CliIo = { cwd: root.path, env: {}, readStdin: async () => '' };
    const outcome = await runCli(
      ['admin', 'deliveries', 'list', '--integration', SLUG, '--data', dataDir, '--json'],
      io,
    );
    if (outcome.kind !== 'exit') throw new Error('expected a one-shot command');
    expect(outcome.exitCode).toBe(0);
    const { data } = JSON.parse(outcome.stdout) as {
      data: { entries: { kind: string; target: string; status: string; attempts: number }[] };
    };
    const webhooks = data.entries.filter((entry) => entry.kind === 'webhook');
    expect(webhooks).toEqual([
      expect.objectContaining({ target: 'tick', status: 'succeeded', attempts: 1 }),
      expect.objectContaining({ target: 'tick', status: 'succeeded', attempts: 1 }),
    ]);
    // Not `--limit 1`: a schedule firing at the minute may be the newest entry by then.
    const text = await runCli(['admin', 'deliveries', 'list', '--data', dataDir, '--limit', '1000'], io);
    if (text.kind !== 'exit') throw new Error('expected a one-shot command');
    expect(text.stdout).toMatch(
      /webhook {2}test-events-load\/tick {2}account \S+ {2}succeeded {2}attempts 1/,
    );
  });

  it('hands a job that outlives the bound back to the queue for another instance', async () => {
    const server = await serve({
      dataDir,
      port: 0,
      examplesDir: null,
      logger: silent,
      shutdownTimeoutMs: 100,
    });
    running = server;
    expect((await send(server, { n: 3, sleepMs: 1500 })).status).toBe(202);
    await until(async () => (await statusOf(server, 3)) === 'running');
    const handedBack = await server.host.events.stop(100);
    expect(handedBack).toBeGreaterThanOrEqual(1);
    const { rows } = await server.host.db.query(
      "SELECT status, locked_until <= $1 AS expired FROM jobs WHERE body::jsonb->>'n' = '3'",
      [new Date()],
    );
    if (rows[0]?.status === 'queued') {
      // On a loaded machine the worker may stop after claiming the job and before its handler
      // started: such a job is handed back as queued, unlocked, for any instance to take.
      expect(rows[0]).toEqual({ status: 'queued', expired: null });
      return;
    }
    expect(rows[0]).toEqual({ status: 'running', expired: true });
    // The handler still finishes here; its success is recorded unless another instance took the job.
    await until(async () => (await statusOf(server, 3)) === 'succeeded');
  });
});
