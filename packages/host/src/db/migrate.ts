import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './Db.js';

// Beside both src/db and dist/db: the package root's migrations folder.
const MIGRATIONS_DIR = new URL('../../migrations/', import.meta.url);

/**
 * Applies every migration not yet applied, each in its own transaction. On PostgreSQL an advisory
 * lock makes concurrent starts of several instances apply each migration once.
 * @example const applied = await migrate(db); // ['0001_init.sql']
 */
export async function migrate(db: Db): Promise<string[]> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(new URL(name, MIGRATIONS_DIR), 'utf8');
    const ran = await db.transaction(async (tx) => {
      if (db.engine === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7468201)');
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (done.rowCount > 0) return false;
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}

// Our migrations hold no functions or quoted semicolons, so splitting on ";" at line ends is exact.
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement !== '');
}
