import { PGlite, type Results } from '@electric-sql/pglite';
import { type Db, type QueryResult, sqlText } from './Db.js';

/**
 * The embedded database: PostgreSQL compiled to WASM, in process, data in `dataDir` (memory when omitted).
 * @example const db = await createPgliteDb('.platform-host/db');
 */
// PGlite reports affectedRows 0 for a SELECT; a statement's row count is its rows when it returns any.
function toResult<T>(result: Results<T>): QueryResult<T> {
  return {
    rows: result.rows,
    rowCount: result.rows.length > 0 ? result.rows.length : (result.affectedRows ?? 0),
  };
}

export async function createPgliteDb(dataDir?: string): Promise<Db> {
  const pglite = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
  await pglite.waitReady;
  return {
    engine: 'pglite',
    async query(sql, params) {
      return toResult(await pglite.query<any>(sqlText(sql), params as unknown[] | undefined));
    },
    async exec(sql) {
      await pglite.exec(sql);
    },
    transaction(fn) {
      return pglite.transaction(async (tx) =>
        fn({
          async query(sql, params) {
            return toResult(await tx.query<any>(sqlText(sql), params as unknown[] | undefined));
          },
        }),
      );
    },
    async close() {
      await pglite.close();
    },
  };
}
