export { NoRecordedResponseError } from '../integration/errors.js';
export { invokeTool, type ToolEnvelope, type ToolError } from '../runtime/invokeTool.js';
export {
  createMockContext,
  MOCK_ACCOUNT_ID,
  MOCK_USER_ID,
  type MockContext,
  type MockContextOptions,
  type MockFetchHandler,
} from './createMockContext.js';
export {
  createMockFetchProvider,
  type MockFetchCall,
  type MockFetchProvider,
  type MockFetchProviderOptions,
} from './createMockFetchProvider.js';
export {
  type FixtureRequest,
  type FixtureSegment,
  findFixture,
  matchFixtureRequest,
  parseFixtureRequest,
} from './fixtureRequest.js';
export { invokeActivate } from './invokeActivate.js';
