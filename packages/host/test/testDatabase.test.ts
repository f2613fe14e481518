import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from './_cli.js';
import { probeTestDatabase } from './globalSetup.js';

// The one decision behind every `*.pg.test.ts`: which PostgreSQL server, or why they skip.

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `vitest run <files>` as a developer would, without this run's variables. */
async function vitestRun(
  files: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; report: JsonReport }> {
  const dir = await tempDir('vitest-pg');
  try {
    const outputFile = join(dir.path, 'report.json');
    const base = Object.fromEntries(
      Object.entries(process.env).filter(
        ([key]) => !/^(VITEST|TEST$|NODE_ENV$|PLATFORM_TEST_DATABASE_URL$)/.test(key),
      ),
    );
    const child = spawn(
      process.execPath,
      [
        join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        ...files,
        '--reporter=json',
        `--outputFile=${outputFile}`,
        '--typecheck.enabled=false',
      ],
      { cwd: REPO_ROOT, env: { ...base, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const report = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
    return { code, stderr, report };
  } finally {
    await dir.cleanup();
  }
}

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

const REASON_LINE = 'PostgreSQL tests (*.pg.test.ts) skipped: ';

describe('the PostgreSQL test database', () => {
  it('uses PLATFORM_TEST_DATABASE_URL as it is, without probing it', async () => {
    const port = await closedPort();
    const url = `postgres://postgres@127.0.0.1:${port}/elsewhere`;
    expect(await probeTestDatabase({ PLATFORM_TEST_DATABASE_URL: url })).toEqual({ url });
  });

  it('skips when PLATFORM_TEST_DATABASE_URL is set to nothing', async () => {
    expect(await probeTestDatabase({ PLATFORM_TEST_DATABASE_URL: '' })).toEqual({
      skipped: 'PLATFORM_TEST_DATABASE_URL is set to nothing',
    });
  });

  it('skips with the reason when the default server does not answer', async () => {
    const port = await closedPort();
    const started = Date.now();
    const database = await probeTestDatabase({
      PLATFORM_TEST_DATABASE_DEFAULT_URL: `postgres://postgres:secret@127.0.0.1:${port}/test`,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(database.url).toBeUndefined();
    expect(database.skipped).toContain(
      `no PostgreSQL server answered at postgres://postgres:***@127.0.0.1:${port}/test`,
    );
    expect(database.skipped).toContain('ECONNREFUSED');
    expect(database.skipped).toContain('set PLATFORM_TEST_DATABASE_URL');
    expect(database.skipped).not.toContain('secret');
  });

  it('skips when a connection opens but nothing answers within the timeout', async () => {
    // Accepts, reads and stays silent: the probe must give up on its own timeout, not hang the run.
    const server = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const database = await probeTestDatabase(
        { PLATFORM_TEST_DATABASE_DEFAULT_URL: `postgres://postgres@127.0.0.1:${port}/test` },
        300,
      );
      expect(database.skipped).toContain(
        `no PostgreSQL server answered at postgres://postgres@127.0.0.1:${port}/test`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a run without a server prints the reason once and skips the PostgreSQL files; a run without them prints nothing', {
    timeout: 180_000,
  }, async () => {
    const port = await closedPort();
    const env = { PLATFORM_TEST_DATABASE_DEFAULT_URL: `postgres://postgres@127.0.0.1:${port}/test` };
    const pgRun = await vitestRun(
      ['packages/host/test/suites.pg.test.ts', 'packages/host/test/routes.pg.test.ts'],
      env,
    );
    expect(pgRun.code, pgRun.stderr).toBe(0);
    expect(pgRun.stderr.split(REASON_LINE).length - 1, pgRun.stderr).toBe(1);
    expect(pgRun.stderr).toContain(
      `no PostgreSQL server answered at postgres://postgres@127.0.0.1:${port}/test`,
    );
    const tests = pgRun.report.testResults.flatMap((file) => file.assertionResults);
    expect(pgRun.report.numPassedTests + pgRun.report.numFailedTests).toBe(0);
    expect(tests.length).toBeGreaterThan(1);
    for (const test of tests) {
      expect(['skipped', 'pending']).toContain(test.status);
      expect(test.fullName).toContain('(skipped: no PostgreSQL server answered at');
    }

    const otherRun = await vitestRun(['packages/integration-schema/src/rules/naming.test.ts'], env);
    expect(otherRun.code, otherRun.stderr).toBe(0);
    expect(otherRun.stderr).not.toContain(REASON_LINE);
  });
});
