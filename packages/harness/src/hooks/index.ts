export {
  type ConfirmLiveActionOptions,
  confirmLiveAction,
  liveConfirmationKey,
} from './confirmLiveAction.js';
export {
  createHarnessFetch,
  type HarnessFetchOptions,
  type HarnessRequestAnswer,
  type HarnessRequestRecord,
} from './createHarnessFetch.js';
export { createSeededQueryClient, type SeededQueryClientOptions } from './createSeededQueryClient.js';
export {
  type HarnessToolbar,
  HarnessToolbarProvider,
  type HarnessToolbarProviderProps,
  useHarnessToolbar,
} from './HarnessToolbarProvider.js';
export {
  HARNESS_HEADERS,
  harnessRequestHeaders,
} from './harnessRequestHeaders.js';
export {
  effectiveToolbarState,
  type HarnessToolbarState,
  initialToolbarState,
} from './harnessToolbarState.js';
export { useConfirmLiveAction } from './useConfirmLiveAction.js';
export { useHarnessFetch } from './useHarnessFetch.js';
