import { migrate } from '../db/migrate.js';
import { openDb } from '../db/openDb.js';
import { claimData, DATA_HELP, DATA_OPTION, type DataOptions, dataOptionsFrom } from './_openHost.js';
import type { Command, CommandResult } from './Command.js';

export interface MigrateResult {
  readonly engine: 'pglite' | 'postgres';
  /** Migrations applied by this run, in order; empty when the schema was current. */
  readonly applied: readonly string[];
}

/**
 * Applies the migrations not yet applied to the database of `options`.
 * @example const { applied } = await migrateDatabase({ dataDir: '.platform-host' });
 */
export async function migrateDatabase(options: DataOptions): Promise<MigrateResult> {
  const release = await claimData(options, 'migrate');
  try {
    const db = await openDb({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
    try {
      return { engine: db.engine, applied: await migrate(db) };
    } finally {
      await db.close();
    }
  } finally {
    await release();
  }
}

export const migrateCommand: Command = {
  path: ['migrate'],
  summary: 'Apply the database migrations that are not applied yet',
  help: ['platform-host migrate [--data DIR] [--json]', '', DATA_HELP].join('\n'),
  options: DATA_OPTION,
  json: true,
  async run(args, io): Promise<CommandResult<MigrateResult>> {
    const result = await migrateDatabase(dataOptionsFrom(args, io));
    const where = result.engine === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'PGlite';
    const text =
      result.applied.length === 0
        ? `${where}: schema is current, no migration applied.`
        : [
            `${where}: applied ${result.applied.length} migration(s):`,
            ...result.applied.map((name) => `  ${name}`),
          ].join('\n');
    return { data: result, text };
  },
};
