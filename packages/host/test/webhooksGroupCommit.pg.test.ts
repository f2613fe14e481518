import { describe, it } from 'vitest';
import { runSuitesOnPostgres } from './_host.js';
import { testDatabase } from './_postgres.js';

// The group commit suite again on PostgreSQL (each host on a schema of its own): there batches
// run on pooled connections, two at once.
const { url: baseUrl, skipped } = testDatabase();

if (baseUrl) {
  runSuitesOnPostgres(baseUrl);
  await import('./webhooksGroupCommit.test.js');
} else {
  describe(`webhook group commit on PostgreSQL (skipped: ${skipped})`, () => {
    it.skip('the group commit suite', () => {});
  });
}
