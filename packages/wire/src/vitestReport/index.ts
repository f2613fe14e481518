// `@platform/wire/vitest-report`: vitest's JSON report, read once for the gate and `platform test`.
export {
  parseVitestReport,
  type VitestCounts,
  type VitestFailure,
  type VitestReportSummary,
} from './parseVitestReport.js';
