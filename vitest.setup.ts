import { afterEach, beforeEach, vi } from 'vitest';

// Unexpected console output fails the test that produced it. A test that expects output
// replaces the method itself (vi.spyOn(console, 'warn').mockImplementation(...)).
const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
let unexpected: string[] = [];

// Component tests (happy-dom): React's act() environment, and unmounting after each test.
// Node tests never load React or Testing Library.
const dom = typeof document !== 'undefined';
if (dom) (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const testingLibrary = dom ? await import('@testing-library/react') : undefined;
// findBy*/waitFor wait up to 1 s by default: not enough for a loaded 2-core machine.
testingLibrary?.configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  unexpected = [];
  for (const method of methods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      unexpected.push(`console.${method}: ${args.map(String).join(' ')}`);
    });
  }
});

afterEach(() => {
  testingLibrary?.cleanup();
  vi.restoreAllMocks();
  if (unexpected.length > 0) {
    throw new Error(`Unexpected console output:\n${unexpected.join('\n')}`);
  }
});
