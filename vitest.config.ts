import { defineConfig } from 'vitest/config';

// Tests import the public package names; the source condition points them at `src` so no build is needed.
const conditions = ['@platform/source', 'module', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@platform/source'] } },
  test: {
    // Component tests opt into a DOM with a `// @vitest-environment happy-dom` docblock; the rest run in Node.
    include: [
      'packages/*/src/**/*.test.{ts,tsx}',
      'packages/*/test/**/*.test.{ts,tsx}',
      'examples/*/src/**/*.test.{ts,tsx}',
    ],
    setupFiles: ['./vitest.setup.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    typecheck: {
      enabled: true,
      include: ['packages/*/src/**/*.test-d.{ts,tsx}'],
      tsconfig: './tsconfig.json',
    },
  },
});
