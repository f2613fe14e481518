import { describe, it } from 'vitest';
import { runSuitesOnPostgres } from './_host.js';

// The PGlite route suites, run again on the real PostgreSQL server: every rule on both engines.
const baseUrl = process.env.PLATFORM_TEST_DATABASE_URL;

if (baseUrl) {
  runSuitesOnPostgres(baseUrl);
  await import('./actions.test.js');
  await import('./storageRoute.test.js');
  await import('./activation.test.js');
  await import('./platform.test.js');
} else {
  describe('route suites on PostgreSQL (skipped: set PLATFORM_TEST_DATABASE_URL to a PostgreSQL database, as .ci/run does)', () => {
    it.skip('actions, storage, activation and platform routes', () => {});
  });
}
