import pg from 'pg';
import type { Db, Sql } from './Db.js';

// A prepared statement goes as pg's named query: parsed once per connection, then bound and run.
// Plain text goes as (text, values): pg then builds its config without copying ours (a spread
// object and pg's descriptor copy of it were a visible share of a query's CPU under load).
// pg reads the values; it does not change them (no copy per query).
function run(target: pg.Pool | pg.PoolClient, sql: Sql, params: readonly unknown[] | undefined) {
  const values = params as unknown[] | undefined;
  if (typeof sql === 'string') return values === undefined ? target.query(sql) : target.query(sql, values);
  const config: pg.QueryConfig = { name: sql.name, text: sql.text };
  if (values !== undefined) config.values = values;
  return target.query(config);
}

/**
 * PostgreSQL through a `pg` pool, for several host instances sharing one database.
 * @example const db = await createPgDb(process.env.DATABASE_URL!);
 */
export async function createPgDb(connectionString: string, options: { max?: number } = {}): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  // A dropped idle connection is replaced by the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  return {
    engine: 'postgres',
    async query(sql, params) {
      const result = await run(pool, sql, params);
      return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const value = await fn({
          async query(sql, params) {
            const result = await run(client, sql, params);
            return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
          },
        });
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
