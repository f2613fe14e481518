import { describe, it } from 'vitest';
import { runSuitesOnPostgres } from './_host.js';
import { testDatabase } from './_postgres.js';

// The tenancy suite again on the real PostgreSQL server: the conditional activation insert with
// its FOR KEY SHARE on source_accounts, and the cache epoch trigger of migration 0015.
const { url: baseUrl, skipped } = testDatabase();

if (baseUrl) {
  runSuitesOnPostgres(baseUrl);
  await import('./tenancy.test.js');
} else {
  describe(`tenancy on PostgreSQL (skipped: ${skipped})`, () => {
    it.skip('activation, calls, tools and deliveries need a source that serves the account', () => {});
  });
}
