import type { Reporter, TestModule } from 'vitest/node';

// Prints one plain closing line, `Tests: N passed, N failed, N skipped`, after vitest's own
// summary, so that a CI reader that does not know vitest's format can still count the run.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (testModule.state() === 'failed' && testModule.children.size === 0) counts.failed++;
    }
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
