/** Rows and count of one statement. */
export interface QueryResult<T> {
  readonly rows: T[];
  readonly rowCount: number;
}

/** What runs SQL: the database itself, or one transaction on it. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
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
