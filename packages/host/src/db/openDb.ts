import { join } from 'node:path';
import { createPgDb } from './createPgDb.js';
import { createPgliteDb } from './createPgliteDb.js';
import type { Db } from './Db.js';

/**
 * PostgreSQL when a URL is given, else PGlite under `<dataDir>/db` (memory when dataDir is omitted).
 * @example const db = await openDb({ databaseUrl: process.env.DATABASE_URL, dataDir: '.platform-host' });
 */
export async function openDb(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
}): Promise<Db> {
  if (options.databaseUrl) return createPgDb(options.databaseUrl);
  return createPgliteDb(options.dataDir === undefined ? undefined : join(options.dataDir, 'db'));
}
