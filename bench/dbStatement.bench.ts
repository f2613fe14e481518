import { prepared, writeStorage } from '@platform/host';
import pino from 'pino';
import { startTestHost } from '../packages/host/test/_host.js';
import { measure, printTable } from './_run.js';

// One hot statement (a call's first read of a storage key, store/storage.ts) on PGlite, the
// embedded database whose CPU is the host's event loop: its text through `pglite.query` (parsed and
// planned on every run) against the same statement prepared (Db.ts's `prepared`: parsed and planned
// once, then bound and run in one trip into the engine). A test host's database, one stored row.
const READ = prepared(
  'SELECT value, version FROM storage WHERE integration_slug = $1 AND account_id = $2 AND scope = $3 AND user_id = $4 AND key = $5',
);
const TEXT = 'storage read as text (pglite.query)';

export async function benchDbStatement(): Promise<void> {
  const host = await startTestHost({ logger: pino({ level: 'silent' }) });
  try {
    const at = { slug: 'test-notes', accountId: host.accountId, scope: 'account' as const, userId: '' };
    await writeStorage(host.db, at, 'cache/count', 3);
    const params = [at.slug, at.accountId, at.scope, at.userId, 'cache/count'];
    const read = (sql: typeof READ | string) => async () => {
      if ((await host.db.query(sql, params)).rowCount !== 1) throw new Error('the stored row was not read');
    };
    const rows = await measure({ [TEXT]: read(READ.text), 'storage read prepared': read(READ) }, 1000);
    printTable('One statement on PGlite (baseline: its text through pglite.query)', rows, TEXT);
  } finally {
    await host.close();
  }
}
