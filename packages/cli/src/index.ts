export { CliError, type CliErrorBody, type CliErrorOptions, toCliError } from './cli/CliError.js';
export {
  type Command,
  type CommandContext,
  defineCommand,
  type OptionSpec,
  type ParsedCommandLine,
} from './cli/defineCommand.js';
export { ExitError } from './cli/ExitError.js';
export { type CommandResult, type Envelope, toEnvelope } from './cli/envelope.js';
export { type CliErrorCode, ERROR_EXIT_CODES, EXIT_CODES, type ExitCode } from './cli/exitCodes.js';
export { createProgress, type Progress, silentProgress } from './cli/progress.js';
export { type MainIO, type OutputStream, runMain } from './cli/runMain.js';
export { createStyle, type Style, shouldUseColor } from './cli/terminal.js';
export {
  DEFAULT_DEV_HOST,
  DEFAULT_DEV_PORT,
  type DevOptions,
  type DevReport,
  devCommand,
  SHELL_CONTRACT,
  SHELL_DIR,
} from './commands/dev/index.js';
export { COMMANDS } from './commands/index.js';
export {
  type InitOptions,
  type InitReport,
  initCommand,
  initProject,
  scaffoldFiles,
} from './commands/init/index.js';
export { type LoginOptions, type LoginReport, loginCommand, loginToHost } from './commands/login/index.js';
export {
  type PublishOptions,
  type PublishReport,
  publishCommand,
  publishProject,
  type SubmittedVersion,
} from './commands/publish/index.js';
export {
  listSources,
  type SourcesOptions,
  type SourcesReport,
  sourcesCommand,
} from './commands/sources/index.js';
export {
  readStatus,
  type StatusOptions,
  type StatusReport,
  statusCommand,
  type VersionStatusView,
  watchStatus,
} from './commands/status/index.js';
export { runProjectTests, type TestOptions, type TestReport, testCommand } from './commands/test/index.js';
export {
  type UpgradeOptions,
  type UpgradeReport,
  upgradeCommand,
  upgradeProject,
} from './commands/upgrade/index.js';
export { selectSource, type UseOptions, type UseReport, useCommand } from './commands/use/index.js';
export {
  effectiveToolName,
  FINDING_SEVERITY,
  type Finding,
  type FindingId,
  type Severity,
  type ValidateOptions,
  type ValidateReport,
  validateCommand,
  validateProject,
} from './commands/validate/index.js';
export { type PackedProject, packProject } from './host/index.js';
export { closestName } from './icons/closestName.js';
export { freeIconNames } from './icons/freeIconNames.js';
export {
  MANIFEST_FILE,
  type Manifest,
  type ManifestIntegration,
  readManifest,
} from './project/readManifest.js';
export { checkSchemaSkew, type SchemaSkew } from './project/schemaSkew.js';
export { compareVersions, minimumOfRange, parseVersion } from './project/semver.js';
export { CLI_VERSION } from './version.js';
