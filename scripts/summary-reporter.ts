import type { Reporter, TestCase, TestModule } from 'vitest/node';

// Prints one plain closing line, `Tests: N passed, N failed, N skipped`, after vitest's own
// summary, so that a CI reader that does not know vitest's format can still count the run. A test
// that never ran because a hook of its suite failed counts as failed, not skipped.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed' || hookFailed(test)) counts.failed++;
        else counts.skipped++;
      }
      if (testModule.state() === 'failed' && testModule.children.size === 0) counts.failed++;
    }
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}

function hookFailed(test: TestCase): boolean {
  let parent: TestCase['parent'] | undefined = test.parent;
  while (parent !== undefined) {
    if (parent.errors().length > 0) return true;
    parent = parent.type === 'module' ? undefined : parent.parent;
  }
  return false;
}
