export { publishCommand } from './command.js';
export {
  type PublishOptions,
  type PublishReport,
  publishProject,
  type SubmittedVersion,
} from './publishProject.js';
