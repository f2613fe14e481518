// The versions store answers with the wire contract's views; the host's API names them too.
export type { VersionStatus, VersionView } from '@platform/wire';
export {
  BROWSER_SHARED_MODULES,
  type BrowserBundle,
  type BrowserBundleComponents,
  buildBrowserBundle,
} from './bundle/buildBrowserBundle.js';
export { buildBundle } from './bundle/buildBundle.js';
export {
  createHostCapabilities,
  type HostCall,
  type HostCallScope,
} from './capabilities/createHostCapabilities.js';
export {
  type CreateHostOptions,
  createHost,
  DEFAULT_RUNTIME,
  type Host,
  type HostEvents,
  type RuntimeKind,
} from './createHost.js';
export { createHostApp } from './createHostApp.js';
export { type Db, type PreparedSql, prepared, type Queryable, type QueryResult, type Sql } from './db/Db.js';
export { migrate } from './db/migrate.js';
export { openDb } from './db/openDb.js';
export { createJobWorker, type JobWorker, type JobWorkerOptions } from './events/createJobWorker.js';
export { createScheduler, type Scheduler, type SchedulerOptions } from './events/createScheduler.js';
export { type JobLogEntry, listJobs } from './events/jobLog.js';
export {
  ArchiveError,
  type CheckResult,
  type Finding as GateFinding,
  GATE_CHECKS,
  type GateInput,
  type GateResult,
  inspectArchive,
  runGate,
} from './gate/index.js';
export { type Review, readsOldData, reviewManifest } from './gate/review.js';
export { DEFAULT_LIMITS, type HostLimits, type HostServices } from './HostServices.js';
export { installProject, LOCAL_SOURCE_SLUG } from './install/installProject.js';
export {
  type PackResult,
  packWorkspace,
  WORKSPACE_PACKAGES,
  type WorkspacePackage,
  workspacePackages,
  workspaceRoot,
} from './registry/packWorkspace.js';
export { openRegistryFolder, type RegistryEntry, type RegistryFolder } from './registry/registryFolder.js';
export { REGISTRY_PATH, type RegistryRoutesOptions, registryRoutes } from './registry/registryRoutes.js';
export type { RunnerStats } from './runtime/_runnerProtocol.js';
export { createInProcessRuntime } from './runtime/createInProcessRuntime.js';
export { createIsolatedRuntime } from './runtime/createIsolatedRuntime.js';
export type { IsolatedRuntime, IsolatedRuntimeOptions } from './runtime/IsolatedRuntimeOptions.js';
export { type IsolatedVmLine, isolatedVmLineFor } from './runtime/isolatedVm.js';
export type {
  Runtime,
  RuntimeCall,
  RuntimeReport,
  RuntimeVersion,
  WebhookPayloadVerdict,
} from './runtime/Runtime.js';
export { createSecretBox, loadSecretKey, type SecretBox } from './secrets/SecretBox.js';
export { addSeat, createSource, type SeatRole, type Source, type SourceStage } from './store/integrations.js';
export { type SecretScope, type SecretTier, writeSecret } from './store/secrets.js';
export { readStorage, type StorageLocation, writeStorage } from './store/storage.js';
export { createToken, createUser, type User } from './store/users.js';
export { findVersion, listSourceVersions } from './store/versions.js';
