import { inject } from 'vitest';

/** The PostgreSQL server of the `*.pg.test.ts` files, or why they skip (decided by `globalSetup.ts`). */
export type TestDatabase = { url: string; skipped?: undefined } | { url?: undefined; skipped: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabase;
  }
}

/**
 * What `globalSetup.ts` decided for this run: `{ url }` to run on, or `{ skipped: reason }`.
 * A `*.pg.test.ts` file reads it once at the top: `const { url, skipped } = testDatabase();`.
 */
export function testDatabase(): TestDatabase {
  return (
    (inject('testDatabase') as TestDatabase | undefined) ?? {
      skipped: "vitest's global setup packages/host/test/globalSetup.ts did not run (see vitest.config.ts)",
    }
  );
}
