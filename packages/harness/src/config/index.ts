export { asHarnessDefinition } from './asHarnessDefinition.js';
export { checkHarnessConfig } from './checkHarnessConfig.js';
export { defineHarnessConfig } from './defineHarnessConfig.js';
export {
  formatHarnessConfigProblems,
  HarnessConfigError,
  type HarnessConfigProblem,
} from './HarnessConfigError.js';
export { harnessOAuthConnected } from './harnessOAuthConnected.js';
export {
  type HarnessWidgetOverride,
  type HarnessWidgetOverrides,
  harnessWidgetsFromDefinition,
} from './harnessWidgetsFromDefinition.js';
