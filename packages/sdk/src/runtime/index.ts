export { DEFINITION_CHECKED_GLOBAL } from '../integration/definitionChecked.js';
export {
  type ResolvedScheme as ResolvedSignatureScheme,
  resolveScheme as resolveSignatureScheme,
} from './_signatureScheme.js';
export type { ValidationIssue } from './_validate.js';
export { actionErrorResponse, actionErrorStatus } from './actionErrorResponse.js';
export {
  type Capabilities,
  type CapabilityFetchRequest,
  type CapabilityFetchResponse,
  capabilityHeader,
  type LogEntry,
  type PreloadedValue,
  type StorageScopeName,
} from './capabilities.js';
export { type CheckEgressUrlOptions, checkEgressUrl } from './checkEgressUrl.js';
export { attachesConnectionAuthorization, connectionAuthorization } from './connectionAuthorization.js';
export { type CreateContextOptions, createContext } from './createContext.js';
export { createGuestFetch, type GuestFetchOptions } from './createGuestFetch.js';
export {
  createMemoryCapabilities,
  type MemoryCapabilities,
  type MemoryCapabilitiesOptions,
} from './createMemoryCapabilities.js';
export {
  deliverWebhook,
  type ParsedWebhookPayload,
  parseWebhookPayload,
  replyToWebhook,
  type WebhookErrorCode,
  type WebhookReplyResult,
} from './deliverWebhook.js';
export { type DefinitionManifest, describeDefinition } from './describeDefinition.js';
export {
  ACTION_ERROR_STATUS,
  ACTION_FAILED_MESSAGE,
  type ActionEnvelope,
  type ActionError,
  type ActionErrorCode,
  type DevError,
  type RunError,
  type RunResult,
  STORAGE_CONFLICT_MESSAGE,
} from './envelope.js';
export { type InvokeActionOptions, invokeAction } from './invokeAction.js';
export {
  type InvokeToolOptions,
  invokeTool,
  readToolEnvelope,
  TOOL_FAILED_MESSAGE,
  TOOL_MESSAGE_MAX_CHARS,
  type ToolEnvelope,
  type ToolError,
  type ToolErrorCode,
} from './invokeTool.js';
export {
  isOAuthCallbackErrorCode,
  OAUTH_CALLBACK_ERROR_CODES,
  type OAuthCallbackErrorCode,
} from './oauthCallbackErrorCodes.js';
export { PAYLOAD_FIT_MAX_STEPS, payloadFitsShape, readPayloadShape } from './payloadFit.js';
export {
  PAYLOAD_SHAPE_MAX_DEPTH,
  PAYLOAD_SHAPE_MAX_NODES,
  type PayloadShape,
  payloadShapeOf,
} from './payloadShape.js';
export { readManifest } from './readManifest.js';
export { redactFields, redactText, redactUrl } from './redact.js';
export { type ActivateResult, runActivate } from './runActivate.js';
export { type GuestCall, runGuestCall } from './runGuestCall.js';
export { type OnTokensErrorCode, runOnTokens } from './runOnTokens.js';
export { runSchedule, type ScheduleErrorCode } from './runSchedule.js';
export {
  fromWireError,
  toWireError,
  undeclaredStorageKeyError,
  type WireError,
  withRuntimeErrors,
} from './runtimeErrors.js';
export {
  isAdminOnlySecret,
  resolveSecretTier,
  SECRET_TIERS,
  type SecretTier,
} from './secretTiers.js';
export { type SignWebhookPayloadInput, signWebhookPayload } from './signWebhookPayload.js';
export { parseStorageRouteQuery, type StorageRouteQuery } from './storageRouteQuery.js';
export {
  createJsonVersions,
  createStorageTransaction,
  type JsonStorageState,
  type JsonVersions,
  jsonCommitTarget,
  type StorageCheck,
  type StorageCommitPlan,
  type StorageCommitResult,
  type StorageCommitTarget,
  type StorageRef,
  type StorageTransaction,
  type StorageTransactionOptions,
  type StorageWrite,
  storageRefId,
  type VersionedValue,
} from './storageTransaction.js';
export { type ToolCallResult, toolCallResult, toolRefusal } from './toolCallResult.js';
export {
  toolArgumentsJson,
  toolConfirmationPrompt,
  toolConfirmationSchema,
  toolConfirmationUnavailableMessage,
  toolNotConfirmedMessage,
} from './toolConfirmation.js';
export {
  mcpToolOf,
  needsConfirmation,
  type ToolAnnotations,
  type ToolDescriptor,
  type ToolEffect,
  type ToolPolicy,
  type ToolSensitivity,
  toolAnnotations,
  toolDescriptors,
} from './toolDescriptors.js';
export {
  type VerifyWebhookSignatureInput,
  verifyWebhookSignature,
  type WebhookHeaders,
  type WebhookRefusal,
  type WebhookVerification,
} from './verifyWebhookSignature.js';
export {
  type CheckedWebhookReply,
  checkWebhookReply,
  WEBHOOK_REPLY_LIMITS,
  type WebhookReplyResponse,
} from './webhookReply.js';
export {
  isCredentialHeader,
  type ParsedWebhookBody,
  parseWebhookBody,
  toWebhookRequest,
  WEBHOOK_HEADER_LIMITS,
  type WebhookRequestInit,
  webhookBodyKind,
  webhookFormBody,
  webhookHeaderView,
} from './webhookRequest.js';
