export {
  asHarnessDefinition,
  checkHarnessConfig,
  defineHarnessConfig,
  formatHarnessConfigProblems,
  HarnessConfigError,
  type HarnessConfigProblem,
  type HarnessWidgetOverride,
  type HarnessWidgetOverrides,
  harnessOAuthConnected,
  harnessWidgetsFromDefinition,
} from './config/index.js';
export {
  HARNESS_ERROR_CODES,
  type HarnessErrorCode,
  LiveActionNotConfirmedError,
  MissingFixtureError,
  NoRecordedResponseError,
} from './errors.js';
export {
  answerFromFixtures,
  type CompiledFixture,
  type CompiledVariant,
  compileFixtures,
  entryEgress,
  fixtureResponse,
  harnessMockContextOptions,
  isHostRouteTarget,
  type RefusalOptions,
  refuseRequest,
  suggestFixture,
} from './fixtures/index.js';
// The toolbar's wire format has no React in it: the API handlers read what the page's fetch sends.
export {
  HARNESS_HEADERS,
  harnessRequestHeaders,
} from './hooks/harnessRequestHeaders.js';
export {
  effectiveToolbarState,
  type HarnessToolbarState,
  initialToolbarState,
} from './hooks/harnessToolbarState.js';
export {
  type FixtureSeed,
  HARNESS_MODES,
  HARNESS_VARIANTS,
  type HarnessDefinition,
  type HarnessFetchHandler,
  type HarnessFixtures,
  type HarnessLive,
  type HarnessMode,
  type HarnessOAuth,
  type HarnessRegistry,
  type HarnessRegistryEntry,
  type HarnessTriggerMocks,
  type HarnessVariant,
  type HarnessWidget,
  type HttpFixture,
} from './types.js';
