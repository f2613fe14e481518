import { runSuitesInProcess } from './_host.js';

// The route suites that run partner code, again on the in-process runtime (local development and
// the harness use it): both runtimes must answer every rule the same way.
runSuitesInProcess();
await import('./actions.test.js');
await import('./activation.test.js');
await import('./webhooks.test.js');
await import('./vendorWebhooks.test.js');
await import('./schedules.test.js');
await import('./storageConcurrency.test.js');
