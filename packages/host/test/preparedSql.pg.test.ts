import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/Db.js';
import { prepared, sqlText } from '../src/db/Db.js';
import { testEngines } from './_host.js';
import { testDatabase } from './_postgres.js';

// Prepared statements (the hot paths' SQL): PostgreSQL prepares each once per pooled connection
// and reuses it; PGlite once in its one session, then binds and runs it in one trip into the
// engine. Both answer as the plain text does, in and out of transactions.
const { url: baseUrl, skipped } = testDatabase();

it('names a statement after its text: one object per text, different texts never share a name', () => {
  const read = prepared('SELECT $1::int AS n');
  expect(prepared('SELECT $1::int AS n')).toBe(read);
  expect(prepared('SELECT $1::int + 1 AS n').name).not.toBe(read.name);
  expect(sqlText(read)).toBe('SELECT $1::int AS n');
  expect(sqlText('SELECT 1')).toBe('SELECT 1');
});

const engines = testEngines(baseUrl, 'prepared');
if (baseUrl === undefined) {
  it.skip(`on PostgreSQL (skipped: ${skipped})`, () => {});
}

describe.each(engines)('prepared statements on %s', (_name, open) => {
  let db: Db;
  let drop: () => Promise<void>;
  const INSERT = prepared('INSERT INTO prepared_check (key, n) VALUES ($1, $2) RETURNING n');
  const READ = prepared('SELECT n FROM prepared_check WHERE key = $1');
  beforeAll(async () => {
    ({ db, drop } = await open());
    await db.exec('CREATE TABLE prepared_check (key text PRIMARY KEY, n int NOT NULL)');
  });
  afterAll(async () => {
    if (db.engine === 'pglite') await db.close();
    await drop();
  });

  it('answers as the text does, on every pooled connection at once', async () => {
    // More at once than the pool has connections: each prepares the statements on first use.
    await Promise.all(Array.from({ length: 24 }, (_, n) => db.query(INSERT, [`k${n}`, n])));
    const read = await Promise.all(Array.from({ length: 24 }, (_, n) => db.query(READ, [`k${n}`])));
    expect(read.map(({ rows }) => rows[0]?.n)).toEqual(Array.from({ length: 24 }, (_, n) => n));
    expect((await db.query(sqlText(READ), ['k3'])).rows).toEqual([{ n: 3 }]);
  });

  it('runs in transactions, rolls back, and is not spoiled by a statement that failed', async () => {
    await expect(db.query(INSERT, ['k1', 100])).rejects.toThrow(/duplicate key|unique/i);
    await expect(
      db.transaction(async (tx) => {
        await tx.query(INSERT, ['t1', 1]);
        expect((await tx.query(READ, ['t1'])).rows).toEqual([{ n: 1 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await db.query(READ, ['t1'])).rows).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.query(INSERT, ['t2', 2]);
    });
    expect((await db.query(READ, ['t2'])).rows).toEqual([{ n: 2 }]);
  });

  it('binds every parameter type the hot paths use and answers as the plain text does', async () => {
    await db.exec(
      'CREATE TABLE IF NOT EXISTS prepared_types (key text PRIMARY KEY, doc jsonb, big bigint, note text)',
    );
    const UPSERT = prepared(
      `INSERT INTO prepared_types (key, doc, big, note) VALUES ($1, $2::jsonb, $3, $4)
       ON CONFLICT (key) DO UPDATE SET doc = excluded.doc, big = excluded.big, note = excluded.note`,
    );
    const MANY = prepared(
      `SELECT r.i, t.doc, t.big, t.note FROM unnest($1::text[]) WITH ORDINALITY AS r (key, i)
       JOIN prepared_types t ON t.key = r.key ORDER BY r.i`,
    );
    const TOUCH = prepared('UPDATE prepared_types SET note = $2 WHERE key = ANY($1::text[])');
    expect(
      (await db.query(UPSERT, ['a', JSON.stringify({ text: 'it\'s \\ "q"', n: [1, 2] }), 7, null])).rowCount,
    ).toBe(1);
    expect((await db.query(UPSERT, ['b,c', JSON.stringify('plain'), '9007199254740993', 'x'])).rowCount).toBe(
      1,
    );
    const keys = ['b,c', 'missing', 'a'];
    const asPrepared = await db.query(MANY, [keys]);
    const asText = await db.query(sqlText(MANY), [keys]);
    expect(asPrepared.rows).toEqual(asText.rows);
    expect(asPrepared.rows.map((row) => [Number(row.i), row.doc, String(row.big), row.note])).toEqual([
      [1, 'plain', '9007199254740993', 'x'],
      [3, { text: 'it\'s \\ "q"', n: [1, 2] }, '7', null],
    ]);
    // No RETURNING: the count is the rows the statement changed.
    expect((await db.query(TOUCH, [['a', 'b,c', 'missing'], 'touched'])).rowCount).toBe(2);
    expect((await db.query(TOUCH, [[], 'none'])).rowCount).toBe(0);
  });

  it('a statement outside a transaction waits for the open transaction and never joins it', async () => {
    let outside: Promise<unknown> | undefined;
    await expect(
      db.transaction(async (tx) => {
        await tx.query(INSERT, ['iso', 9]);
        outside = db.query(READ, ['iso']);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // Had it run inside the transaction, it would have seen (and held) the row rolled back.
    expect(((await outside) as { rows: unknown[] }).rows).toEqual([]);
  });

  it('a bad statement fails with the database error, and the next statements still run', async () => {
    const BAD = prepared('SELECT n FROM prepared_missing_table WHERE key = $1');
    await expect(db.query(BAD, ['k1'])).rejects.toThrow(/prepared_missing_table/);
    await expect(db.query(BAD, ['k1'])).rejects.toThrow(/prepared_missing_table/);
    expect((await db.query(READ, ['k2'])).rows).toEqual([{ n: 2 }]);
  });

  it('is prepared in the session, not parsed again as text', async () => {
    // In a transaction: PostgreSQL's prepared statements belong to the pooled connection it holds.
    const names = await db.transaction(async (tx) => {
      await tx.query(READ, ['k1']);
      return (await tx.query('SELECT name FROM pg_prepared_statements WHERE name = $1', [READ.name])).rows;
    });
    expect(names).toEqual([{ name: READ.name }]);
  });
});
