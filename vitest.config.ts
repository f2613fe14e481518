import { configDefaults, defineConfig } from 'vitest/config';

// Tests import the public package names; the source condition points them at `src` so no build is needed.
const conditions = ['@platform/source', 'module', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@platform/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
    // Fixture projects are partner projects the CLI's tests run the CLI on, not tests of this tree.
    exclude: [...configDefaults.exclude, 'packages/*/test/fixtures/**'],
    setupFiles: ['./vitest.setup.ts'],
    // The CLI's tests drive the built `platform` binary; this builds it (and what it loads) when stale.
    globalSetup: ['./packages/cli/test/globalSetup.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    typecheck: {
      enabled: true,
      include: ['packages/*/src/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
