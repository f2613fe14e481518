import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/Db.js';
import { prepared, sqlText } from '../src/db/Db.js';
import { openDb } from '../src/db/openDb.js';
import { pgSchema } from './_host.js';
import { testDatabase } from './_postgres.js';

// Prepared statements (the hot paths' SQL): PostgreSQL prepares each once per pooled connection
// and reuses it; PGlite runs the text. Both answer as the plain text does, in and out of transactions.
const { url: baseUrl, skipped } = testDatabase();

it('names a statement after its text: one object per text, different texts never share a name', () => {
  const read = prepared('SELECT $1::int AS n');
  expect(prepared('SELECT $1::int AS n')).toBe(read);
  expect(prepared('SELECT $1::int + 1 AS n').name).not.toBe(read.name);
  expect(sqlText(read)).toBe('SELECT $1::int AS n');
  expect(sqlText('SELECT 1')).toBe('SELECT 1');
});

const engines: [string, () => Promise<{ db: Db; drop(): Promise<void> }>][] = [
  ['PGlite', async () => ({ db: await openDb({}), drop: async () => {} })],
];
if (baseUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const schema = await pgSchema(baseUrl, 'prepared');
      const db = await openDb({ databaseUrl: schema.url });
      return {
        db,
        async drop() {
          await db.close();
          await schema.drop();
        },
      };
    },
  ]);
} else {
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
});
