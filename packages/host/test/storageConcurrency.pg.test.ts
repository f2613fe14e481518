import { describe, it } from 'vitest';
import { runSuitesOnPostgres } from './_host.js';
import { testDatabase } from './_postgres.js';

// The storage concurrency suite again on the real PostgreSQL server: the version check's row and
// advisory locks under real concurrent transactions (PGlite runs one transaction at a time).
const { url: baseUrl, skipped } = testDatabase();

if (baseUrl) {
  runSuitesOnPostgres(baseUrl);
  await import('./storageConcurrency.test.js');
  await import('./storagePlan.test.js');
} else {
  describe(`storage concurrency on PostgreSQL (skipped: ${skipped})`, () => {
    it.skip('six concurrent deliveries, 409 conflict, checkpoints, lease lost', () => {});
  });
}
