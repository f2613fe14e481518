export type { WebhookSignature, WebhookSignatureScheme } from '@platform/integration-schema';
export {
  type DefinitionProblem,
  IntegrationDefinitionError,
  parseDefinition,
} from '@platform/integration-schema';
export { defineIntegration } from './defineIntegration.js';
export {
  EgressDeniedError,
  MachineActorStorageError,
  NoRecordedResponseError,
  OAuthConnectionRefusedError,
  type OAuthRefusalCode,
  PublicActionError,
  RUNTIME_ERROR_CODES,
  SecretAccessError,
  StorageValidationError,
} from './errors.js';
export type {
  ActionConstraint,
  Actor,
  AnyIntegrationDefinition,
  AnySchema,
  IntegrationContext,
  IntegrationDefinition,
  Logger,
  LogLevel,
  NoKeys,
  OAuthDeclaration,
  PartnerActionDeclaration,
  Proposes,
  Rect,
  ScheduleDeclaration,
  SchemaInput,
  SchemaOutput,
  Secrets,
  StorageDeclaration,
  StorageSchemas,
  StorageScope,
  Tokens,
  ToolConstraint,
  WebhookConstraint,
  WidgetDeclaration,
} from './types.js';
