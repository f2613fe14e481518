import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type CreateHostOptions, createHost, type Host, installProject } from '@platform/host';
import pino, { type Logger } from 'pino';
import { createPgDb } from '../src/db/createPgDb.js';
import { type Db, type Queryable, type Sql, sqlText } from '../src/db/Db.js';
import { openDb } from '../src/db/openDb.js';
import { addSourceAccount, type InstalledVersion, upsertActivation } from '../src/store/integrations.js';
import { addMembership, createAccount, createToken, createUser } from '../src/store/users.js';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface TestHost extends Host {
  readonly userId: string;
  /** The seeded user's email (its password is `correct horse`). */
  readonly email: string;
  readonly accountId: string;
  readonly token: string;
  /** `app.request()` as the seeded user (bearer token), JSON by default. */
  call(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Another user, member of the seeded account with `role`, with its own token. */
  addUser(
    role: 'owner' | 'admin' | 'member',
    options?: { member?: boolean },
  ): Promise<{ userId: string; token: string }>;
}

// Set by runSuitesOnPostgres(): hosts started without a databaseUrl then get a fresh PostgreSQL schema.
let postgresBaseUrl: string | undefined;

/**
 * Makes every `startTestHost()` in the suites imported afterwards run on PostgreSQL, each host on
 * a schema of its own that is dropped when the host closes. A `*.pg.test.ts` file calls it and then
 * imports the PGlite suites, so every route rule runs on both engines.
 */
export function runSuitesOnPostgres(baseUrl: string): void {
  postgresBaseUrl = baseUrl;
}

// Set by runSuitesInProcess(): hosts started without a runtime then run partner code in process.
let inProcess = false;

/**
 * Makes every `startTestHost()` in the suites imported afterwards use the in-process runtime (the
 * one of local development and the harness) instead of the default isolated one.
 */
export function runSuitesInProcess(): void {
  inProcess = true;
}

/**
 * A host on PGlite in memory (or PostgreSQL when `databaseUrl` is given) with one user, one
 * account, a bearer token, and the fixture projects installed and activated.
 */
export async function startTestHost(
  options: CreateHostOptions & { projects?: readonly string[]; activate?: boolean } = {},
): Promise<TestHost> {
  const schema =
    options.databaseUrl === undefined && postgresBaseUrl !== undefined
      ? await pgSchema(postgresBaseUrl, 'suite')
      : undefined;
  const created = await createHost({
    logger: pino({ level: 'silent' }),
    ...(inProcess ? { runtime: 'in-process' as const } : {}),
    ...options,
    ...(schema === undefined ? {} : { databaseUrl: schema.url }),
  });
  const host: Host =
    schema === undefined
      ? created
      : {
          ...created,
          async close() {
            await created.close();
            await schema.drop();
          },
        };
  const user = await createUser(host.db, {
    email: `owner-${randomBytes(4).toString('hex')}@example.test`,
    name: 'Owner',
    password: 'correct horse',
  });
  const account = await createAccount(host.db, {
    slug: `acct-${randomBytes(4).toString('hex')}`,
    name: 'Test account',
  });
  await addMembership(host.db, account.id, user.id, 'owner');
  const { token } = await createToken(host.db, { userId: user.id, kind: 'token', name: 'test' });
  for (const project of options.projects ?? ['notes']) {
    const versions = await installFixture(
      host,
      project,
      options.activate === false ? undefined : { accountId: account.id, userId: user.id },
    );
    // Activated or not, the seeded account is served by the fixtures' source (the tenancy rule).
    for (const version of versions) await addSourceAccount(host.db, version.sourceId, account.id);
  }
  const request =
    (bearer: string) =>
    async (path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${bearer}`);
      const { json, ...rest } = init;
      if (json !== undefined) {
        headers.set('content-type', 'application/json');
        return host.app.request(path, { method: 'POST', ...rest, headers, body: JSON.stringify(json) });
      }
      return host.app.request(path, { ...rest, headers });
    };
  return {
    ...host,
    userId: user.id,
    email: user.email,
    accountId: account.id,
    token,
    call: request(token),
    async addUser(role, addOptions = {}) {
      const other = await createUser(host.db, {
        email: `${role}-${randomBytes(4).toString('hex')}@example.test`,
        name: role,
      });
      if (addOptions.member !== false) await addMembership(host.db, account.id, other.id, role);
      return {
        userId: other.id,
        token: (await createToken(host.db, { userId: other.id, kind: 'token' })).token,
      };
    },
  };
}

/**
 * Installs a fixture project on a host and, given an account, serves that account from the
 * project's source and activates its integrations there.
 */
export async function installFixture(
  host: Pick<Host, 'db' | 'services'>,
  project: string,
  activateFor?: { readonly accountId: string; readonly userId: string },
): Promise<InstalledVersion[]> {
  const { versions } = await installProject({
    db: host.db,
    runtime: host.services.runtime,
    projectDir: `${FIXTURES}${project}`,
  });
  if (activateFor !== undefined) {
    for (const version of versions) {
      await addSourceAccount(host.db, version.sourceId, activateFor.accountId);
      await upsertActivation(host.db, { slug: version.slug, ...activateFor, data: null });
    }
  }
  return versions;
}

/** A fresh schema on the real PostgreSQL server for one test file, and its cleanup. */
export async function pgSchema(
  baseUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const schema = `t_${name}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

/**
 * The texts of the statements `host` runs through its database that match `pattern`, recorded
 * until `stop` (`clear` empties the record).
 * @example const claims = watchStatements(host, /^\s*WITH queued AS/); ...; expect(claims.texts).toHaveLength(1);
 */
export function watchStatements(
  host: Host,
  pattern: RegExp,
): { readonly texts: readonly string[]; readonly answered: number; clear(): void; stop(): void } {
  const db = host.services.db as { query: Queryable['query'] };
  const query = db.query;
  const bound = query.bind(host.services.db);
  let texts: string[] = [];
  // Those of `texts` whose query settled (answered or failed).
  let answered = 0;
  db.query = <T>(statement: Sql, params?: readonly unknown[]) => {
    const text = sqlText(statement);
    if (!pattern.test(text)) return bound<T>(statement, params);
    texts.push(text);
    return bound<T>(statement, params).finally(() => {
      answered += 1;
    });
  };
  return {
    get texts() {
      return texts;
    },
    get answered() {
      return answered;
    },
    clear() {
      texts = [];
      answered = 0;
    },
    stop() {
      db.query = query;
    },
  };
}

/** A database a test file runs on: its engine's name, and how to open a fresh one there. */
export type TestEngine = [name: string, open: () => Promise<{ db: Db; drop(): Promise<void> }>];

/**
 * PGlite in memory and, when the run has a PostgreSQL server (`baseUrl`), a fresh schema on it
 * named after `name`, for `describe.each`. `connections`: the PostgreSQL pool's size (default 10).
 * @example describe.each(testEngines(testDatabase().url, 'claims'))('claims on %s', (_name, open) => { ... });
 */
export function testEngines(
  baseUrl: string | undefined,
  name: string,
  options: { connections?: number } = {},
): TestEngine[] {
  const engines: TestEngine[] = [['PGlite', async () => ({ db: await openDb({}), drop: async () => {} })]];
  if (baseUrl === undefined) return engines;
  engines.push([
    'PostgreSQL',
    async () => {
      const schema = await pgSchema(baseUrl, name);
      const db = await createPgDb(
        schema.url,
        options.connections === undefined ? {} : { max: options.connections },
      );
      return {
        db,
        async drop() {
          await db.close();
          await schema.drop();
        },
      };
    },
  ]);
  return engines;
}

/** What partner code logged through a host, read back by tests (see {@link partnerLog}). */
export interface PartnerLog {
  /** A host logger (pass it as `logger`); several hosts may share one. */
  readonly logger: Logger;
  /** The `fields[key]` of each partner line logged as `message`, in order. */
  reported<T = Record<string, unknown>>(message: string, key: string): T[];
  clear(): void;
}

/**
 * A logger that keeps the partner lines (`partner: true`) a host writes. Fixtures report what their
 * handlers saw through `ctx.logger`, which reaches the host from an isolate and in process alike,
 * so tests read handler behaviour the way an operator would, never through shared globals.
 * @example const log = partnerLog(); const host = await startTestHost({ logger: log.logger });
 */
export function partnerLog(): PartnerLog {
  let lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug' },
    {
      write(line: string) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.partner === true) lines.push(entry);
      },
    },
  );
  return {
    logger,
    reported: <T>(message: string, key: string) =>
      lines.filter((line) => line.msg === message).map((line) => line[key] as T),
    clear() {
      lines = [];
    },
  };
}
