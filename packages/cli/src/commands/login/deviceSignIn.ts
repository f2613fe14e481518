import { hostname } from 'node:os';
import { deviceCodeResponseSchema, deviceTokenResponseSchema } from '@platform/wire';
import { CliError } from '../../cli/CliError.js';
import type { HostClient } from '../../host/createHostClient.js';
import { hostErrorToCliError } from '../../host/hostError.js';
import type { HostUser } from '../../host/hostTypes.js';
import { readHostData } from '../../host/readHostData.js';
import { CLI_VERSION } from '../../version.js';

/** `POST /api/platform/device/code`: what the person must open and confirm. */
export interface DeviceCode {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete?: string;
  /** Seconds between polls. */
  readonly interval: number;
  /** Seconds until the code expires. */
  readonly expires_in: number;
}

/** `POST /api/platform/device/token` once approved: a CLI session. */
export interface DeviceGrant {
  readonly token: string;
  readonly token_type: string;
  readonly expires_at: string;
  /** The user has TOTP: the session works only after `POST /api/platform/mfa/verify`. */
  readonly mfa_pending: boolean;
  readonly user: HostUser;
}

/** What {@link deviceSignIn} needs besides the client. */
export interface DeviceSignInOptions {
  /** Called once with the code to show, before polling starts. */
  readonly onCode: (code: DeviceCode) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

// RFC 8628 3.5: on slow_down, poll 5 seconds slower from then on (unless the host says how slow).
const SLOW_DOWN_STEP = 5;
// A host configured with interval 0 (tests) still gets a breath between polls.
const MIN_POLL_MS = 200;

/**
 * The device authorization flow (RFC 8628 shape): asks for a code, shows it, then polls every
 * `interval` seconds (slower after `slow_down`) until the person approves or denies it on the
 * host's page, or it expires.
 */
export async function deviceSignIn(client: HostClient, options: DeviceSignInOptions): Promise<DeviceGrant> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const now = options.now ?? Date.now;
  const code: DeviceCode = await client.request(
    'POST',
    '/api/platform/device/code',
    deviceCodeResponseSchema,
    {
      client_name: `platform CLI ${CLI_VERSION} on ${hostname()}`.slice(0, 100),
    },
  );
  options.onCode(code);
  const deadline = now() + code.expires_in * 1000;
  let interval = Math.max(0, code.interval);
  for (;;) {
    await sleep(Math.max(interval * 1000, MIN_POLL_MS));
    if (now() > deadline) throw expired(client.origin, code.expires_in);
    const answer = await client.call('POST', '/api/platform/device/token', { device_code: code.device_code });
    if (answer.ok)
      return readHostData(
        client.origin,
        'POST /api/platform/device/token',
        deviceTokenResponseSchema,
        answer.data,
      );
    switch (answer.error.code) {
      case 'authorization_pending':
        continue;
      case 'slow_down':
        interval =
          typeof answer.error.interval === 'number' && answer.error.interval > interval
            ? answer.error.interval
            : interval + SLOW_DOWN_STEP;
        continue;
      case 'access_denied':
        throw new CliError('login_failed', `The sign-in request was denied on ${client.origin}.`, {
          hint:
            answer.error.hint ??
            `Run \`platform login --host ${client.origin}\` again and choose Approve on the host's page.`,
        });
      case 'expired_token':
        throw expired(client.origin, code.expires_in);
      default:
        throw hostErrorToCliError(client.origin, answer.status, answer.error);
    }
  }
}

function expired(origin: string, seconds: number): CliError {
  return new CliError('login_failed', `The sign-in code for ${origin} expired before it was approved.`, {
    hint: `Run \`platform login --host ${origin}\` again and approve the code within ${Math.round(seconds / 60)} minutes.`,
  });
}
