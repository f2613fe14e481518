export { testCommand } from './command.js';
export type { TestCounts, TestFailure } from './readVitestReport.js';
export { runProjectTests, TEST_REPORT_FILE, type TestOptions, type TestReport } from './runProjectTests.js';
