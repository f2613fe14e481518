export type { HarnessApiErrorCode } from './_errors.js';
export type { LiveFetch } from './_harnessApi.js';
export { EXPOSE_VARIABLE, isLoopbackHost } from './_requestGuards.js';
export {
  createHarnessApiHandlers,
  type HarnessApiHandlers,
  type HarnessApiOptions,
  LOOPBACK_VARIABLE,
} from './createHarnessApiHandlers.js';
export { LIVE_DIR } from './liveStore.js';
export { LOCAL_SECRETS_FILE } from './localSecrets.js';
export { RECORDED_FIXTURES_DIR, recordedFixturesPath } from './recorder/createRecorder.js';
export type { LocalCredential } from './routes/localSetup.js';
export type { SigningSecretSource } from './routes/webhookTrigger.js';
