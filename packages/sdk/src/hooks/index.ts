export type { ValidationIssue } from '../runtime/_validate.js';
export type { ActionErrorCode, DevError } from '../runtime/envelope.js';
export {
  isOAuthCallbackErrorCode,
  type OAuthCallbackErrorCode,
} from '../runtime/oauthCallbackErrorCodes.js';
export { type FetchIntegrationStorageOptions, fetchIntegrationStorage } from './fetchIntegrationStorage.js';
export {
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  IntegrationActionError,
  type IntegrationActionErrorCode,
  IntegrationRequestError,
  type IntegrationRequestErrorInit,
  isIntegrationActionError,
} from './IntegrationActionError.js';
export {
  IntegrationActivationDataProvider,
  type IntegrationActivationDataProviderProps,
  useActivationData,
} from './IntegrationActivationDataProvider.js';
export {
  ActivationProviderMissingError,
  type IntegrationActivation,
  IntegrationActivationProvider,
  type IntegrationActivationProviderProps,
  useActivateIntegration,
  useDeactivateIntegration,
} from './IntegrationActivationProvider.js';
export {
  type FetchFunction,
  IntegrationFetchProvider,
  type IntegrationFetchProviderProps,
  useIntegrationFetch,
} from './IntegrationFetchProvider.js';
export { type AccountOptions, integrationActionUrl } from './integrationActionUrl.js';
export {
  createPartnerConnectionCheck,
  type PartnerConnectionCheck,
  type PartnerConnectionStatus,
  partnerOAuthConnectPath,
  partnerOAuthStatusUrl,
} from './partnerOAuth.js';
export {
  OAUTH_CALLBACK_ERROR_MESSAGES,
  type PartnerOAuthError,
  type PartnerOAuthErrorParam,
  partnerOAuthErrorParam,
} from './partnerOAuthErrorParam.js';
export {
  type DefinitionWithActions,
  type IntegrationActionInput,
  type IntegrationActionMutation,
  type IntegrationActionName,
  type IntegrationActionOutput,
  type UseIntegrationActionOptions,
  useIntegrationAction,
} from './useIntegrationAction.js';
