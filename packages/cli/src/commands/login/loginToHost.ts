import { meResponseSchema } from '@platform/wire';
import { readHostData } from '../../host/readHostData.js';

// What the CLI reads of `GET /api/platform/me`: who is signed in.
const ME = meResponseSchema.pick({ user: true });

import { CliError } from '../../cli/CliError.js';
import { type Progress, silentProgress } from '../../cli/progress.js';
import { createHostClient, type HostClient } from '../../host/createHostClient.js';
import { hostErrorToCliError } from '../../host/hostError.js';
import { ask, canPrompt, type HostIO, readAll } from '../../host/hostIO.js';
import type { HostUser } from '../../host/hostTypes.js';
import { parseHostUrl } from '../../host/parseHostUrl.js';
import { hostsFilePath, readHosts, saveSession } from '../../host/sessionStore.js';
import { deviceSignIn } from './deviceSignIn.js';

/** What `platform login` needs. */
export interface LoginOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The host to sign in to; without it, the current host of the sessions file. */
  readonly host?: string;
  /** A personal access token (CI) instead of the device flow. */
  readonly token?: string;
  /** Read the personal access token from stdin. */
  readonly tokenStdin?: boolean;
  /** The authenticator code, for an account with TOTP, when no terminal can ask for it. */
  readonly mfaCode?: string;
  readonly io: HostIO;
  readonly progress?: Progress;
}

/** Who is signed in where (`data` of `platform login --json`). */
export interface LoginReport {
  readonly host: string;
  readonly user: HostUser;
  /** `cli`: a CLI session from the device flow; `token`: a personal access token. */
  readonly kind: 'cli' | 'token';
  /** True when an authenticator code was verified in this run. */
  readonly mfaVerified: boolean;
  /** The source `platform use` selected on this host, if any. */
  readonly source: string | null;
  readonly sessionsFile: string;
}

const MAX_CODE_ATTEMPTS = 3;

/**
 * Signs in to a host and stores the session (see `sessionStore.ts`): with a personal access token
 * (checked with `GET /api/platform/me`), by completing a stored session that waits for an
 * authenticator code (`--mfa-code`), or through the device flow, asking for the authenticator code
 * when the account has TOTP.
 */
export async function loginToHost(options: LoginOptions): Promise<LoginReport> {
  const { env } = options;
  const origin = options.host === undefined ? readHosts(env).current : parseHostUrl(options.host);
  if (origin === undefined) {
    throw new CliError('no_host', 'No host to sign in to: no --host and no current host.', {
      hint: 'Run `platform login --host <url>`, for example `platform login --host https://platform.example.com`.',
    });
  }
  const report = (user: HostUser, kind: 'cli' | 'token', mfaVerified: boolean): LoginReport => ({
    host: origin,
    user,
    kind,
    mfaVerified,
    source: readHosts(env).hosts[origin]?.source ?? null,
    sessionsFile: hostsFilePath(env),
  });

  if (options.token !== undefined || options.tokenStdin === true) {
    const token = options.token ?? (await readAll(options.io.stdin));
    const user = await checkToken(origin, token);
    saveSession(env, origin, { token, kind: 'token', user: { email: user.email } });
    return report(user, 'token', false);
  }

  if (options.mfaCode !== undefined) {
    const stored = readHosts(env).hosts[origin];
    if (stored?.kind === 'cli') {
      const client = createHostClient(origin, stored.token);
      const me = await client.call('GET', '/api/platform/me');
      if (me.ok) {
        saveSession(env, origin, { token: stored.token, kind: 'cli', user: stored.user });
        return report(readHostData(origin, 'GET /api/platform/me', ME, me.data).user, 'cli', false);
      }
      if (me.error.code === 'auth_required' && me.error.reason === 'mfa_pending') {
        await verifyCode(client, options.mfaCode);
        const user = await whoAmI(client);
        saveSession(env, origin, { token: stored.token, kind: 'cli', user: { email: user.email } });
        return report(user, 'cli', true);
      }
    }
  }

  const client = createHostClient(origin);
  let waiting: { stop(): void } | undefined;
  let grant: Awaited<ReturnType<typeof deviceSignIn>>;
  try {
    grant = await deviceSignIn(client, {
      onCode(code) {
        options.io.stderr.write(
          `To sign in to ${origin}, open\n  ${code.verification_uri_complete ?? code.verification_uri}\nand check that the page shows the code ${code.user_code}.\n`,
        );
        waiting = (options.progress ?? silentProgress).start('Waiting for approval');
      },
    });
  } finally {
    waiting?.stop();
  }
  saveSession(env, origin, { token: grant.token, kind: 'cli', user: { email: grant.user.email } });
  if (!grant.mfa_pending) return report(grant.user, 'cli', false);

  const signedIn = createHostClient(origin, grant.token);
  if (options.mfaCode !== undefined) {
    await verifyCode(signedIn, options.mfaCode);
    return report(grant.user, 'cli', true);
  }
  if (!canPrompt(options.io)) {
    throw new CliError(
      'auth_required',
      `Signed in to ${origin} as ${grant.user.email}, but the account uses an authenticator app: the session waits for a code.`,
      { hint: `Enter your authenticator code: \`platform login --host ${origin} --mfa-code <code>\`.` },
    );
  }
  for (let attempt = 1; ; attempt++) {
    const code = await ask(options.io, 'Authenticator code: ');
    try {
      await verifyCode(signedIn, code);
      return report(grant.user, 'cli', true);
    } catch (error) {
      if (attempt >= MAX_CODE_ATTEMPTS || !isWrongCode(error)) throw error;
      options.io.stderr.write(`${(error as Error).message} Try again.\n`);
    }
  }
}

async function checkToken(origin: string, token: string): Promise<HostUser> {
  if (token === '') {
    throw new CliError('usage', 'The token is empty.', {
      hint: 'Pass a personal access token with --token <pat>, or pipe it into --token-stdin.',
    });
  }
  const answer = await createHostClient(origin, token).call('GET', '/api/platform/me');
  if (answer.ok) return readHostData(origin, 'GET /api/platform/me', ME, answer.data).user;
  if (answer.error.code === 'auth_required') {
    throw new CliError('auth_required', `${origin} refused the token: ${answer.error.message}`, {
      hint: `Check the token (it may be revoked or expired) or create a new one, then run \`platform login --host ${origin} --token-stdin\` again.`,
    });
  }
  throw hostErrorToCliError(origin, answer.status, answer.error);
}

async function whoAmI(client: HostClient): Promise<HostUser> {
  return (await client.request('GET', '/api/platform/me', ME)).user;
}

async function verifyCode(client: HostClient, code: string): Promise<void> {
  const answer = await client.call('POST', '/api/platform/mfa/verify', { code });
  if (answer.ok) return;
  if (answer.error.code !== 'auth_required')
    throw hostErrorToCliError(client.origin, answer.status, answer.error);
  const retry = answer.error.reason === 'mfa_invalid';
  throw new CliError(
    'auth_required',
    `${client.origin} did not accept the authenticator code: ${answer.error.message}`,
    {
      hint:
        answer.error.hint ??
        (retry
          ? `Run \`platform login --host ${client.origin} --mfa-code <code>\` with the current code from your authenticator app.`
          : `Run \`platform login --host ${client.origin}\` to sign in again.`),
      cause: { reason: answer.error.reason },
    },
  );
}

/** True for a refused code that another code may fix (not an expired or revoked session). */
function isWrongCode(error: unknown): boolean {
  return (
    error instanceof CliError && (error.cause as { reason?: unknown } | undefined)?.reason === 'mfa_invalid'
  );
}
