// The naming rule lives in integration-schema; still exported here, as it was, for callers of the CLI.
export { effectiveToolName } from '@platform/integration-schema';
export { validateCommand } from './command.js';
export { FINDING_SEVERITY, type Finding, type FindingId, type Severity } from './finding.js';
export {
  type IntegrationSummary,
  type ValidateOptions,
  type ValidateReport,
  validateProject,
} from './validateProject.js';
