import { createHash } from 'node:crypto';

/** Rows and count of one statement. */
export interface QueryResult<T> {
  readonly rows: T[];
  readonly rowCount: number;
}

/**
 * A statement PostgreSQL parses and plans once per connection, then only binds and runs (the hot
 * paths: a call's storage read and commit, the job queue). Named after its text, so two texts
 * never share a name; PGlite prepares it once in its one session (createPgliteDb.ts). Only for
 * constant texts: each one costs every connection a prepared statement for its life.
 */
export interface PreparedSql {
  readonly name: string;
  readonly text: string;
}

/** A statement's SQL: its text, or a {@link PreparedSql}. */
export type Sql = string | PreparedSql;

/**
 * @example const READ = prepared('SELECT value FROM storage WHERE key = $1'); await db.query(READ, [key]);
 */
export function prepared(text: string): PreparedSql {
  let statement = preparedByText.get(text);
  if (statement === undefined) {
    statement = { name: `platform_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
    preparedByText.set(text, statement);
  }
  return statement;
}
// One object per text, so a statement written inline costs a lookup, not a hash, per call.
const preparedByText = new Map<string, PreparedSql>();

/** The text of a statement, prepared or not. */
export const sqlText = (sql: Sql): string => (typeof sql === 'string' ? sql : sql.text);

/** What runs SQL: the database itself, or one transaction on it. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: Sql, params?: readonly unknown[]): Promise<QueryResult<T>>;
}

/**
 * One interface over PGlite (embedded) and PostgreSQL (`pg` pool). Queries use `$n` parameters;
 * JSON values are passed as strings and cast with `::jsonb`, which both engines read alike.
 */
export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
