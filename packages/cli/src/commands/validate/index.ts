export { effectiveToolName } from './checkCollisions.js';
export { validateCommand } from './command.js';
export { FINDING_SEVERITY, type Finding, type FindingId, type Severity } from './finding.js';
export {
  type IntegrationSummary,
  type ValidateOptions,
  type ValidateReport,
  validateProject,
} from './validateProject.js';
