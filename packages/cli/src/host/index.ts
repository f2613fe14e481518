export { createByteProgress, formatBytes } from './byteProgress.js';
export {
  createHostClient,
  type HostAnswer,
  type HostClient,
  type UploadProgress,
} from './createHostClient.js';
export { type HostErrorBody, hostErrorToCliError, unreachableError } from './hostError.js';
export {
  ask,
  canPrompt,
  type HostInput,
  type HostIO,
  type HostOutput,
  processIO,
  readAll,
} from './hostIO.js';
export {
  type CheckView,
  type HostFinding,
  type HostUser,
  type SourceSeat,
  VERDICTS,
  type VersionStatus,
  type VersionView,
} from './hostTypes.js';
export { LOCKFILE, type PackedProject, packProject } from './packProject.js';
export { parseHostUrl } from './parseHostUrl.js';
export { type ResolvedSession, resolveSession } from './resolveSession.js';
export { resolveTargetSource, type SourceOrigin, type TargetSource } from './resolveTargetSource.js';
export {
  type HostSession,
  type HostsFile,
  hostsFilePath,
  readHosts,
  saveSelectedSource,
  saveSession,
  writeHosts,
} from './sessionStore.js';
