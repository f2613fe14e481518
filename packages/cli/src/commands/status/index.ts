export { createCheckLines } from './checkLines.js';
export { statusCommand } from './command.js';
export {
  fetchFindings,
  fetchVersions,
  readStatus,
  type StatusOptions,
  type StatusReport,
  type VersionStatusView,
} from './readStatus.js';
export { watchStatus } from './watchStatus.js';
