export { checkDefinitionRules, checkUnique, headerPlaceholders } from './checkDefinitionRules.js';
export { checkSignatureScheme } from './checkSignatureScheme.js';
export { type DefinitionShape, definitionSchemas, HOST_ASSIGNED_FIELDS } from './definitionShape.js';
export {
  definitionWidgetsOnly,
  type MetafileLike,
  type OnResolvePlugin,
  serverSideImports,
} from './definitionWidgetsOnly.js';
export {
  type DefinitionProblem,
  formatDefinitionProblems,
  IntegrationDefinitionError,
} from './IntegrationDefinitionError.js';
export { type DefinitionData, type ParseDefinitionResult, parseDefinition } from './parseDefinition.js';
export {
  BROWSER_BUNDLE_CODES,
  BROWSER_BUNDLE_LIMITS,
  BROWSER_BUNDLE_OPTIONS,
  BROWSER_SHARED_MODULES,
  type BrowserBundleComponents,
  type BrowserBundleSizeProblem,
  browserBundleEntry,
  browserBundleSizeProblem,
  formatBundleSize,
} from './rules/browserBundle.js';
export { type CronCheck, type CronFields, checkCron } from './rules/cron.js';
export {
  type EgressPattern,
  type EgressPatternCheck,
  egressPatternCovers,
  isEgressAllowed,
  parseEgressPattern,
} from './rules/egress.js';
export {
  checkFrameComponentFields,
  FRAME_COMPONENT_EXTENSIONS,
  FRAME_COMPONENT_FIELDS,
  type FrameComponentField,
  type FrameComponentPaths,
  type FrameComponentProblem,
  frameComponentPath,
} from './rules/frameComponents.js';
export {
  checkListingFields,
  LISTING_FIELDS,
  LISTING_LIMITS,
  type ListingFields,
  type ListingIconSet,
  type ListingProblem,
  listingDocsPath,
  listingDocsSizeProblem,
  type StoredListing,
} from './rules/listing.js';
export { isKebabCase, isSnakeCase, kebabCaseMessage, toKebabCase, toSnakeCase } from './rules/naming.js';
export { compareVersions, parseVersion, type Version } from './rules/semver.js';
export {
  ACCOUNT_STORAGE_DATA_TYPES,
  checkStorageKey,
  type StorageKeyCheck,
  type StorageScopeName,
  storageDataTypes,
  USER_STORAGE_DATA_TYPES,
} from './rules/storageKey.js';
export {
  EFFECTIVE_TOOL_NAME_MAX_LENGTH,
  effectiveToolName,
  effectiveToolNameProblem,
} from './rules/toolName.js';
export {
  NO_ARGUMENTS_SCHEMA,
  TOOL_INPUT_SCHEMA_MAX_CHARS,
  type ToolInputSchemaResult,
  toolInputSchema,
  toolInputSchemaProblem,
  toolOutputSchema,
  toolOutputSchemaProblem,
} from './rules/toolSchema.js';
export {
  isHeaderName,
  SIGNED_PAYLOAD_PLACEHOLDERS,
  type SignedPayloadPart,
  signedPayloadParts,
} from './signedPayload.js';
export { isStandardSchema, type StandardSchemaV1 } from './standardSchema.js';
export { SCHEMA_VERSION } from './version.js';
export type { WebhookSignature, WebhookSignatureScheme } from './webhookSignature.js';
export {
  mentionsZodLocales,
  type OnLoadPlugin,
  type ReadText,
  zodLocalesLeftOut,
} from './zodLocalesLeftOut.js';
