import { describe, it } from 'vitest';
import { runSuitesOnPostgres } from './_host.js';
import { testDatabase } from './_postgres.js';

// The dashboard's suite again on the real PostgreSQL server: placements made by concurrent first
// reads, and the version check of saves arriving together, under its concurrency.
const { url: baseUrl, skipped } = testDatabase();

if (baseUrl) {
  runSuitesOnPostgres(baseUrl);
  await import('./dashboard.test.js');
  await import('./dashboardAccount.test.js');
} else {
  describe(`dashboard routes on PostgreSQL (skipped: ${skipped})`, () => {
    it.skip('placements, collapse, pin, versioned saves, reset, activation changes, sessions and health', () => {});
  });
}
