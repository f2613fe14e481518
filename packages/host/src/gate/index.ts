export { ARCHIVE_ERROR_REASONS, ArchiveError, type ArchiveErrorReason } from './ArchiveError.js';
export {
  type CheckName,
  type CheckResult,
  type CheckStatus,
  type Finding,
  GATE_CHECKS,
  type GateIntegration,
  type GateResult,
} from './GateResult.js';
export {
  type ArchiveContents,
  type ArchiveLimits,
  DEFAULT_ARCHIVE_LIMITS,
  inspectArchive,
  type ProjectManifest,
} from './inspectArchive.js';
export {
  type FrameComponentPaths,
  type FrameComponentProblem,
  readProjectComponents,
} from './projectComponents.js';
export { type ListingProblem, readProjectListing, type StoredListing } from './projectListing.js';
export { missingGateProtections } from './protections.js';
export { type Review, readsOldData, reviewManifest } from './review.js';
export { DEFAULT_GATE_LIMITS, type GateInput, type GateLimits, runGate } from './runGate.js';
