import {
  type MfaStatusResponse,
  mfaCodeRequestSchema,
  type TotpConfirmResponse,
  type TotpSetupResponse,
} from '@platform/wire';
import { type Context, Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { securityEvent } from '../security/securityEvent.js';
import { newTotpSecret, saveTotpSecret, totpEnabled, verifyTotp } from '../store/totp.js';
import { type Credential, type CredentialVia, clearMfaPending, type User } from '../store/users.js';
import { checkStateChange, hostOrigin, requireCredential } from './_auth.js';
import { RouteError, requestIdOf } from './_errors.js';
import { parsedBody } from './_jsonBody.js';
import { limitPerMinute } from './_limitPerMinute.js';

const CODE_USAGE = '{ "code": "123456" } (the current code of your authenticator app)';

/**
 * `/api/platform/mfa/...`: TOTP. `verify` clears a session's or CLI session's `mfa_pending` with
 * the current code; `totp` starts enrolment (secret + otpauth URL), `totp/confirm` enables it;
 * `GET /` says whether TOTP is enabled (the settings page).
 */
export function mfaRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/', async (c) => {
    const { user } = await requireCredential(services, c, 'read');
    const enabled = await totpEnabled(services.db, user.id);
    return c.json({ ok: true, data: { totp: { enabled } } satisfies MfaStatusResponse });
  });

  app.post('/verify', async (c) => {
    checkStateChange(services, c, { requireJson: true });
    const { user, credential, via } = await requireCredential(services, c, 'any', { allowMfaPending: true });
    const code = await codeOf(services, c);
    // Nothing to clear: saying so is harmless, and spends no code.
    if (!credential.mfaPending) return c.json({ ok: true, data: { user, mfa_pending: false } });
    await limitAttempts(services, c, user);
    const result = await verifyTotp(services.db, services.secretBox, {
      userId: user.id,
      code,
      now: services.now(),
      purpose: 'verify',
    });
    if (result !== 'ok') throw mfaInvalid(services, c, { user, credential, via, result, purpose: 'verify' });
    await clearMfaPending(services.db, credential.id);
    return c.json({ ok: true, data: { user, mfa_pending: false } });
  });

  app.post('/totp', async (c) => {
    checkStateChange(services, c, { requireJson: false });
    const { user } = await requireSession(services, c);
    if (await totpEnabled(services.db, user.id)) {
      throw new RouteError(409, 'conflict', `TOTP is already enabled for ${user.email}.`, {
        hint: `Keep using your authenticator app; to reset it, ask an operator to run \`platform-host admin user totp --email ${user.email}\`.`,
      });
    }
    const { secret, otpauthUrl } = newTotpSecret(user.email);
    await saveTotpSecret(services.db, services.secretBox, { userId: user.id, secret, enabledAt: undefined });
    return c.json({ ok: true, data: { secret, otpauth_url: otpauthUrl } satisfies TotpSetupResponse });
  });

  app.post('/totp/confirm', async (c) => {
    checkStateChange(services, c, { requireJson: true });
    const { user, credential, via } = await requireSession(services, c);
    const code = await codeOf(services, c);
    await limitAttempts(services, c, user);
    const result = await verifyTotp(services.db, services.secretBox, {
      userId: user.id,
      code,
      now: services.now(),
      purpose: 'confirm',
    });
    if (result === 'not_set_up') {
      throw new RouteError(409, 'conflict', `No TOTP set-up of ${user.email} waits for confirmation.`, {
        hint: 'Start with POST /api/platform/mfa/totp, add the secret to your authenticator app, then confirm a code.',
      });
    }
    if (result !== 'ok') throw mfaInvalid(services, c, { user, credential, via, result, purpose: 'confirm' });
    return c.json({ ok: true, data: { enabled: true } satisfies TotpConfirmResponse });
  });

  return app;
}

async function codeOf(services: HostServices, c: Context): Promise<string> {
  return (await parsedBody(services.limits, c, mfaCodeRequestSchema, CODE_USAGE)).code;
}

// TOTP set-up belongs to a person signed in (browser or CLI), verified: never to a token.
async function requireSession(services: HostServices, c: Context) {
  const found = await requireCredential(services, c, 'any');
  if (found.credential.kind === 'token') {
    throw new RouteError(403, 'forbidden', 'A personal access token cannot set up TOTP.', {
      hint: `Sign in with \`platform login --host ${hostOrigin(services, c)}\` or in the browser, and set it up from there.`,
    });
  }
  return found;
}

// A million codes, three good at a time: attempts per user are counted across host instances.
async function limitAttempts(services: HostServices, c: Context, user: User): Promise<void> {
  const limit = services.limits.mfaAttemptsPerMinute;
  await limitPerMinute(services, c, {
    bucket: { key: `mfa:${user.id}`, limit, name: 'mfa_per_user' },
    fields: { userId: user.id },
    event: 'too many authenticator codes tried',
    message: `More than ${limit} authenticator codes tried in a minute.`,
    hint: (seconds) => `Wait ${seconds} seconds, then enter the current code.`,
  });
}

/** 401 `auth_required` with reason `mfa_invalid`, logged as a security event (never the code). */
function mfaInvalid(
  services: HostServices,
  c: Context,
  input: {
    user: User;
    credential: Credential;
    via: CredentialVia;
    result: 'not_set_up' | 'invalid' | 'replayed';
    purpose: 'verify' | 'confirm';
  },
): RouteError {
  securityEvent(
    services.logger,
    'mfa_failed',
    {
      userId: input.user.id,
      credential: input.credential.kind,
      purpose: input.purpose,
      outcome: input.result,
      requestId: requestIdOf(c),
    },
    'authenticator code refused',
  );
  const origin = hostOrigin(services, c);
  const message =
    input.result === 'replayed'
      ? 'This authenticator code was already used.'
      : 'The authenticator code is wrong or out of date.';
  const hint =
    input.via === 'bearer' && input.purpose === 'verify'
      ? `Enter the current code from your authenticator app: \`platform login --host ${origin} --mfa-code <code>\`.`
      : input.result === 'replayed'
        ? 'Wait for the next code of your authenticator app and enter that one.'
        : 'Enter the current 6-digit code of your authenticator app (check that its clock is right).';
  return new RouteError(401, 'auth_required', message, { reason: 'mfa_invalid', hint });
}
