import { afterEach, beforeEach, vi } from 'vitest';

// Unexpected console output fails the test that produced it. A test that expects output
// replaces the method itself (vi.spyOn(console, 'warn').mockImplementation(...)).
const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
let unexpected: string[] = [];

beforeEach(() => {
  unexpected = [];
  for (const method of methods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      unexpected.push(`console.${method}: ${args.map(String).join(' ')}`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (unexpected.length > 0) {
    throw new Error(`Unexpected console output:\n${unexpected.join('\n')}`);
  }
});
