import { describe, it } from 'vitest';
import { runSuitesOnPostgres } from './_host.js';
import { testDatabase } from './_postgres.js';

// The PGlite route suites, run again on the real PostgreSQL server: every rule on both engines.
const { url: baseUrl, skipped } = testDatabase();

if (baseUrl) {
  runSuitesOnPostgres(baseUrl);
  await import('./actions.test.js');
  await import('./storageRoute.test.js');
  await import('./activation.test.js');
  await import('./platform.test.js');
  await import('./accountRef.test.js');
  await import('./signIn.test.js');
  // The marketplace's queries (jsonb listing, tenancy, consented versions).
  await import('./marketplace.test.js');
  // Webhook requests stored with their jobs (jsonb headers), vendor schemes and replies.
  await import('./vendorWebhooks.test.js');
  // The isolated runtime's escape and resource suites, behind the real actions route.
  await import('./isolatedRuntime.test.js');
} else {
  describe(`route suites on PostgreSQL (skipped: ${skipped})`, () => {
    it.skip('actions, storage, activation, platform, account-reference, sign-in, marketplace and vendor webhook routes; isolated runtime escape and resource suites', () => {});
  });
}
