import { PGlite, parse as pgliteParse, protocol, type Results } from '@electric-sql/pglite';
import { type Db, type PreparedSql, type QueryResult, type Sql, sqlText } from './Db.js';

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

const { serialize } = protocol;

export async function createPgliteDb(dataDir?: string): Promise<Db> {
  const pglite = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
  await pglite.waitReady;
  // Prepared statements (Db.ts's `prepared`, the hot paths' SQL): parsed once in this database's one
  // session (PostgreSQL then plans them once), and each run is Bind + Describe + Execute + Sync in one
  // trip into the WASM engine. `pglite.query` parses and plans the text on every run (in six trips):
  // `npm run bench -- dbStatement` measured a storage read at 300-390 us that way and 110 us this way
  // (the text through one trip as the unnamed statement still took 300-350 us: the parse and plan
  // are the cost). Parameters are serialized by the statement's parameter types with PGlite's own
  // serializers, and rows parsed with its own parsers, as `pglite.query` does: both paths answer
  // alike (test/preparedSql.pg.test.ts).
  const parameterTypes = new Map<string, number[]>();

  // Runs while this caller holds PGlite's query lock (and, outside a transaction, its transaction lock).
  async function runPrepared<T>(
    statement: PreparedSql,
    params: readonly unknown[] | undefined,
    inTransaction: boolean,
  ): Promise<QueryResult<T>> {
    if (pglite.closed) throw new Error('PGlite is closed');
    let types = parameterTypes.get(statement.name);
    if (types === undefined) {
      const { messages } = await pglite.execProtocol(
        Buffer.concat([
          serialize.parse({ name: statement.name, text: statement.text }),
          serialize.describe({ type: 'S', name: statement.name }),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      types = pgliteParse.parseDescribeStatementResults(messages);
      parameterTypes.set(statement.name, types);
    }
    const values = (params ?? []).map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = pglite.serializers[types[index]!];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await pglite.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: !inTransaction },
    );
    return toResult(pgliteParse.parseResults(messages, pglite.parsers)[0] as Results<T>);
  }

  return {
    engine: 'pglite',
    async query<T>(sql: Sql, params?: readonly unknown[]) {
      if (typeof sql !== 'string') {
        return pglite._runExclusiveTransaction(() =>
          pglite.runExclusive(() => runPrepared<T>(sql, params, false)),
        );
      }
      return toResult(await pglite.query<any>(sql, params as unknown[] | undefined));
    },
    async exec(sql) {
      await pglite.exec(sql);
    },
    transaction(fn) {
      return pglite.transaction(async (tx) =>
        fn({
          async query<T>(sql: Sql, params?: readonly unknown[]) {
            if (typeof sql !== 'string') {
              if (tx.closed) throw new Error('Transaction is closed');
              // The transaction holds PGlite's transaction lock; the query lock orders its statements.
              return pglite.runExclusive(() => runPrepared<T>(sql, params, true));
            }
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
