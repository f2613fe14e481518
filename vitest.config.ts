import { defaultClientConditions, defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

// Tests import the public package names; the source condition points them at `src` so no build is
// needed. Vite's own defaults stay, so `require()` inside CommonJS packages keeps resolving as Node does.
const source = '@platform/source';

export default defineConfig({
  resolve: { conditions: [source, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [source, ...defaultServerConditions], externalConditions: [source] } },
  test: {
    // Component tests opt into a DOM with a `// @vitest-environment happy-dom` docblock; the rest run in Node.
    include: [
      'packages/*/src/**/*.test.{ts,tsx}',
      'packages/*/test/**/*.test.{ts,tsx}',
      'examples/*/src/**/*.test.{ts,tsx}',
    ],
    setupFiles: ['./vitest.setup.ts'],
    // Host tests start PGlite, migrate and bundle fixtures: seconds, not milliseconds.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Fixture projects are partner projects the CLI's tests run the CLI on, not tests of this tree.
    exclude: [...configDefaults.exclude, 'packages/*/test/fixtures/**'],
    // The CLI's tests drive the built `platform` binary; this builds it (and what it loads) when stale.
    // The web app's builds dist/app when stale (the host serves it).
    // The host's picks the PostgreSQL server of the `*.pg.test.ts` files once (PLATFORM_TEST_DATABASE_URL,
    // else a local server that answers), or prints once why they skip.
    globalSetup: [
      './packages/cli/test/globalSetup.ts',
      './packages/host/test/globalSetup.ts',
      './packages/web/test/globalSetup.ts',
    ],
    reporters: ['default', './scripts/summary-reporter.ts'],
    typecheck: {
      enabled: true,
      include: ['packages/*/src/**/*.test-d.{ts,tsx}'],
      tsconfig: './tsconfig.json',
    },
  },
});
