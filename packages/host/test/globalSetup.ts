import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { TestDatabase } from './_postgres.js';

/** The server `*.pg.test.ts` files use when `PLATFORM_TEST_DATABASE_URL` is unset and it answers. */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Decides once per run which PostgreSQL server the `*.pg.test.ts` files use:
 * `PLATFORM_TEST_DATABASE_URL` when set (as `.ci/run` does; not probed, so a wrong one fails the
 * tests instead of skipping them), else {@link DEFAULT_TEST_DATABASE_URL} (or
 * `PLATFORM_TEST_DATABASE_DEFAULT_URL`) when a real connection to it succeeds within `timeoutMs`.
 * Otherwise the files skip, for the reason given. An empty `PLATFORM_TEST_DATABASE_URL` skips them.
 */
export async function probeTestDatabase(
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 2000,
): Promise<TestDatabase> {
  const configured = env.PLATFORM_TEST_DATABASE_URL;
  if (configured !== undefined) {
    return configured === ''
      ? { skipped: 'PLATFORM_TEST_DATABASE_URL is set to nothing' }
      : { url: configured };
  }
  const url = env.PLATFORM_TEST_DATABASE_DEFAULT_URL || DEFAULT_TEST_DATABASE_URL;
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // A server that drops the connection later must not crash the run.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { url };
  } catch (error) {
    const cause = error instanceof Error ? error.message || (error as { code?: string }).code : String(error);
    return {
      skipped: `no PostgreSQL server answered at ${withoutPassword(url)} (${cause}); start one there or set PLATFORM_TEST_DATABASE_URL, as .ci/run does`,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/**
 * vitest's global setup: probes once, hands the answer to the test files (`testDatabase()` in
 * `_postgres.ts`), and prints why the PostgreSQL tests skip, once, when the run includes any.
 */
export default async function setup(project: TestProject): Promise<void> {
  const database = await probeTestDatabase();
  project.provide('testDatabase', database);
  if (database.skipped !== undefined && runsPostgresTests(project)) {
    process.stderr.write(`\nPostgreSQL tests (*.pg.test.ts) skipped: ${database.skipped}\n\n`);
  }
}

// The files of this run (vitest's state API, experimental); when it cannot say, assume they are included.
function runsPostgresTests(project: TestProject): boolean {
  let paths: string[] | undefined;
  try {
    paths = project.vitest.state.getPaths();
  } catch {
    paths = undefined;
  }
  return !paths?.length || paths.some((path) => path.endsWith('.pg.test.ts'));
}
