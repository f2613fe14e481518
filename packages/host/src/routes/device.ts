import {
  type DeviceApproveResponse,
  type DeviceCodeResponse,
  type DeviceRequestResponse,
  type DeviceTokenResponse,
  deviceApproveRequestSchema,
  deviceCodeRequestSchema,
  deviceTokenRequestSchema,
} from '@platform/wire';
import { type Context, Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { clientAddress } from '../security/clientAddress.js';
import {
  createDeviceCode,
  DEVICE_CODE_TTL_SECONDS,
  decideDeviceCode,
  findDeviceRequest,
  normalizeUserCode,
  pollDeviceCode,
} from '../store/deviceCodes.js';
import { totpEnabled } from '../store/totp.js';
import { createToken, findUserById, type User } from '../store/users.js';
import { checkStateChange, hostOrigin, requireCredential } from './_auth.js';
import { RouteError } from './_errors.js';
import { invalidInput, parsedBody } from './_jsonBody.js';
import { limitPerAddress } from './_limitPerMinute.js';

const CODE_USAGE = '{ "client_name": "platform CLI on my-laptop" } (optional)';
const TOKEN_USAGE = '{ "device_code": "<the device_code of POST /api/platform/device/code>" }';
const APPROVE_USAGE = '{ "user_code": "BCDF-GHJK", "decision": "approve" | "deny" }';

/**
 * `/api/platform/device/...`: device authorization in the shape of RFC 8628. The CLI asks for a
 * code, the person approves it on `/device` while signed in, the CLI polls for its session.
 */
export function deviceRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.post('/code', async (c) => {
    // Creates a code and reads no credential: a foreign Origin is refused, no Origin is the CLI.
    checkStateChange(services, c, { requireJson: false, credential: 'none' });
    // Anonymous, and each code is a row kept for its lifetime: capped per client address, across
    // instances (one sign-in needs one code; a request through no socket, a test's, is not counted).
    await limitPerAddress(services, c, {
      name: 'device_codes',
      limit: services.limits.deviceCodesPerMinute,
      what: 'device codes',
      hint: (seconds) => `Wait ${seconds} seconds, then run \`platform login\` again.`,
    });
    const { client_name: clientName } = await parsedBody(
      services.limits,
      c,
      deviceCodeRequestSchema,
      CODE_USAGE,
      { optional: true },
    );
    const interval = services.limits.devicePollIntervalSeconds;
    const { deviceCode, userCode } = await createDeviceCode(services.db, {
      clientName: clientName?.replace(/[\p{Cc}\p{Cf}]/gu, '') || undefined,
      clientAddress: clientAddress(c, services.trustedProxies),
      intervalSeconds: interval,
      now: services.now(),
    });
    const verificationUri = `${hostOrigin(services, c)}/device`;
    return c.json({
      ok: true,
      data: {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?code=${userCode}`,
        interval,
        expires_in: DEVICE_CODE_TTL_SECONDS,
      } satisfies DeviceCodeResponse,
    });
  });

  app.post('/token', async (c) => {
    checkStateChange(services, c, { requireJson: false, credential: 'none' });
    await limitPerAddress(services, c, {
      name: 'device_token_polls',
      limit: services.limits.deviceTokenPollsPerMinute,
      what: 'device token polls',
      hint: (seconds) => `Wait ${seconds} seconds, then poll again at the code's interval.`,
    });
    const body = await parsedBody(services.limits, c, deviceTokenRequestSchema, TOKEN_USAGE);
    const now = services.now();
    const origin = hostOrigin(services, c);
    const poll = await pollDeviceCode(services.db, body.device_code, now);
    const again = `Run \`platform login --host ${origin}\` again for a new code.`;
    switch (poll.status) {
      case 'unknown':
        throw new RouteError(400, 'expired_token', 'This device code is unknown or was already used.', {
          hint: again,
        });
      case 'expired':
        throw new RouteError(400, 'expired_token', 'This device code expired before it was approved.', {
          hint: again,
        });
      case 'denied':
        throw new RouteError(400, 'access_denied', 'The sign-in was denied on the approval page.', {
          hint: `If you meant to sign in, run \`platform login --host ${origin}\` again and choose Approve.`,
        });
      case 'pending':
        throw new RouteError(400, 'authorization_pending', 'The sign-in is not approved yet.', {
          hint: `Approve it at ${origin}/device, then poll again after the interval.`,
        });
      case 'slow_down': {
        const interval = services.limits.devicePollIntervalSeconds;
        throw new RouteError(400, 'slow_down', `Polled sooner than every ${interval} seconds.`, {
          interval,
          hint: `Wait at least ${interval} seconds between polls.`,
        });
      }
    }
    const user = await findUserById(services.db, poll.userId);
    if (user === undefined) {
      throw new RouteError(400, 'expired_token', 'The user who approved this sign-in no longer exists.', {
        hint: again,
      });
    }
    const mfaPending = await totpEnabled(services.db, user.id);
    const expiresAt = new Date(now.getTime() + services.limits.cliSessionDays * 86_400_000);
    const { token } = await createToken(services.db, {
      userId: user.id,
      kind: 'cli',
      name: poll.clientName ?? 'platform CLI',
      expiresAt,
      mfaPending,
    });
    return c.json({
      ok: true,
      data: {
        token,
        token_type: 'Bearer',
        expires_at: expiresAt.toISOString(),
        mfa_pending: mfaPending,
        user: { id: user.id, email: user.email, name: user.name },
      } satisfies DeviceTokenResponse,
    });
  });

  // What the approval page shows before the person decides: the client's own name for itself,
  // the address and time the code was asked for. For a browser session only, like approving.
  // Counted per address before anything else, so a session cannot try codes until one answers.
  app.get('/requests/:userCode', async (c) => {
    await limitPerAddress(services, c, {
      name: 'device_lookups',
      limit: services.limits.deviceLookupsPerMinute,
      what: 'device code look-ups',
      hint: (seconds) => `Wait ${seconds} seconds, then open the approval page again.`,
    });
    const userCode = normalizeUserCode(c.req.param('userCode'));
    await requireBrowserSession(services, c);
    if (userCode === undefined) throw notDecided('unknown', c.req.param('userCode').slice(0, 20));
    const request = await findDeviceRequest(services.db, userCode, services.now());
    if (request === undefined) throw notDecided('unknown', userCode);
    return c.json({
      ok: true,
      data: {
        user_code: userCode,
        client_name: request.clientName ?? null,
        client_address: request.clientAddress ?? null,
        requested_at: request.requestedAt.toISOString(),
        expires_at: request.expiresAt.toISOString(),
      } satisfies DeviceRequestResponse,
    });
  });

  app.post('/approve', async (c) => {
    checkStateChange(services, c, { requireJson: true });
    await limitPerAddress(services, c, {
      name: 'device_approvals',
      limit: services.limits.deviceApprovalsPerMinute,
      what: 'device sign-in answers',
      hint: (seconds) => `Wait ${seconds} seconds, then approve again.`,
    });
    const user = await requireBrowserSession(services, c);
    const body = await parsedBody(services.limits, c, deviceApproveRequestSchema, APPROVE_USAGE);
    const userCode = normalizeUserCode(body.user_code);
    if (userCode === undefined) {
      throw invalidInput(APPROVE_USAGE, 'user_code is not a code like BCDF-GHJK.');
    }
    const decision = body.decision;
    const outcome = await decideDeviceCode(services.db, {
      userCode,
      userId: user.id,
      decision,
      now: services.now(),
    });
    if (outcome.outcome !== 'decided') throw notDecided(outcome.outcome, userCode);
    services.logger.info({ userId: user.id, decision }, 'device sign-in answered');
    return c.json({
      ok: true,
      data: {
        user_code: userCode,
        decision,
        client_name: outcome.clientName ?? null,
      } satisfies DeviceApproveResponse,
    });
  });

  return app;
}

/** The signed-in user of a browser session: a token or a CLI session cannot mint a CLI session. */
async function requireBrowserSession(services: HostServices, c: Context): Promise<User> {
  const { user, credential } = await requireCredential(services, c, 'any');
  if (credential.kind !== 'session') {
    throw new RouteError(403, 'forbidden', 'Device sign-ins are approved from the browser page only.', {
      hint: `Open ${hostOrigin(services, c)}/device in a browser signed in to the host, and approve there.`,
    });
  }
  return user;
}

function notDecided(outcome: 'unknown' | 'expired' | 'already_decided', userCode: string): RouteError {
  const again = 'Run `platform login` again for a new code.';
  if (outcome === 'unknown') {
    return new RouteError(404, 'invalid_request', `No sign-in waits for code ${userCode}.`, {
      hint: 'Check the code the CLI printed and type it again.',
    });
  }
  if (outcome === 'expired') {
    return new RouteError(400, 'expired_token', `Code ${userCode} expired.`, { hint: again });
  }
  return new RouteError(409, 'conflict', `Code ${userCode} was already approved or denied.`, { hint: again });
}
