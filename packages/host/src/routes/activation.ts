import { redactText } from '@platform/sdk/runtime';
import { activationRequestSchema } from '@platform/wire';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { callCapabilities } from '../capabilities/callCapabilities.js';
import type { HostServices } from '../HostServices.js';
import {
  deleteActivation,
  findActivation,
  SourceDoesNotServeError,
  upsertActivation,
} from '../store/integrations.js';
import { membershipRole } from '../store/users.js';
import { ACCOUNT_MANAGERS } from './_account.js';
import { checkStateChange } from './_auth.js';
import { type CallTarget, integrationNotFound, resolveCall } from './_call.js';
import { errorResponse, RouteError } from './_errors.js';
import { parsedBody } from './_jsonBody.js';

const ACTIVATION_USAGE = '{ "data": { ... } } (or an empty body)';

/**
 * Activation of an integration for an account (what `useActivateIntegration()`,
 * `useDeactivateIntegration()` and `useActivationData()` call):
 * - `GET    /<slug>/activation?accountId=` -> `{ active, data, activatedAt?, updatedAt? }`
 * - `POST   /<slug>/activation?accountId=` body `{ data? }` -> activates (idempotent), consenting to
 *   the live version (`consented_version_id`, what the marketplace compares a newer one against)
 * - `PUT    /<slug>/activation/data?accountId=` body `{ data }` -> replaces the activation data
 * - `DELETE /<slug>/activation?accountId=` -> deactivates
 * Every route resolves through `resolveCall`: an integration whose source does not serve the
 * account answers 404 `integration_not_found`, the same as a slug that does not exist.
 * `onActivate` runs after the activation is first persisted and after its data is updated; its
 * errors are logged, never fatal.
 */
export function activationRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/:slug/activation', async (c) => {
    const target = await resolveCall(services, c, { allowInactive: true });
    const activation = await findActivation(services.db, target.version.slug, target.accountId);
    return c.json({
      ok: true,
      data:
        activation === undefined
          ? { active: false, data: null }
          : {
              active: true,
              data: activation.data,
              activatedAt: activation.activatedAt.toISOString(),
              updatedAt: activation.updatedAt.toISOString(),
            },
    });
  });

  app.post('/:slug/activation', async (c) => {
    const target = await managedCall(c, services);
    const body = await parsedBody(services.limits, c, activationRequestSchema, ACTIVATION_USAGE, {
      optional: true,
    });
    const existing = await findActivation(services.db, target.version.slug, target.accountId);
    const data = body.data === undefined ? (existing?.data ?? null) : body.data;
    const { created } = await servedActivation(services, {
      slug: target.version.slug,
      accountId: target.accountId,
      userId: target.user.id,
      data,
      // Activating again is consenting again: to what the live version asks for now.
      consentedVersionId: target.version.id,
    });
    const onActivate = created || body.data !== undefined ? await runOnActivate(services, target) : undefined;
    return c.json(
      { ok: true, data: { active: true, created, data, ...(onActivate ? { onActivate } : {}) } },
      created ? 201 : 200,
    );
  });

  app.put('/:slug/activation/data', async (c) => {
    const target = await managedCall(c, services);
    const body = await parsedBody(services.limits, c, activationRequestSchema, ACTIVATION_USAGE, {
      optional: true,
    });
    if (!('data' in body))
      return errorResponse(c, 400, 'invalid_input', 'Send { "data": ... } with the new activation data.');
    if ((await findActivation(services.db, target.version.slug, target.accountId)) === undefined) {
      return errorResponse(c, 403, 'not_activated', 'Activate the integration before updating its data.');
    }
    await servedActivation(services, {
      slug: target.version.slug,
      accountId: target.accountId,
      userId: target.user.id,
      data: body.data,
    });
    const onActivate = await runOnActivate(services, target);
    return c.json({ ok: true, data: { active: true, data: body.data, onActivate } });
  });

  app.delete('/:slug/activation', async (c) => {
    const target = await managedCall(c, services, { json: false });
    const removed = await deleteActivation(services.db, target.version.slug, target.accountId);
    return c.json({ ok: true, data: { active: false, removed } });
  });

  return app;
}

/**
 * `upsertActivation`, answering a refusal for tenancy (the source stopped serving the account
 * after the call resolved) as the resolution itself would: 404 like an unknown slug.
 */
async function servedActivation(
  services: HostServices,
  input: Parameters<typeof upsertActivation>[1],
): Promise<{ created: boolean }> {
  try {
    return await upsertActivation(services.db, input);
  } catch (error) {
    if (error instanceof SourceDoesNotServeError) throw integrationNotFound(input.slug);
    throw error;
  }
}

async function managedCall(
  c: Context,
  services: HostServices,
  options: { json?: boolean } = {},
): Promise<CallTarget> {
  checkStateChange(services, c, { requireJson: options.json ?? true });
  const target = await resolveCall(services, c, { allowInactive: true });
  const role = await membershipRole(services.db, target.accountId, target.user.id);
  if (role === undefined || !ACCOUNT_MANAGERS.includes(role)) {
    throw new RouteError(
      403,
      'forbidden',
      'Only account owners and admins can change activations; ask one of them.',
    );
  }
  return target;
}

async function runOnActivate(services: HostServices, target: CallTarget) {
  const { capabilities, commit } = callCapabilities(services, {
    version: target.version,
    accountId: target.accountId,
    userId: target.user.id,
  });
  const result = await services.runtime.runActivate({
    version: target.version,
    capabilities,
    actor: { kind: 'user', userId: target.user.id, accountId: target.accountId },
    timeoutMs: services.limits.actionTimeoutMs,
  });
  if (result.ok) {
    await commit();
    return { ok: true, ran: result.ran };
  }
  services.logger.warn(
    { integration: target.version.slug, accountId: target.accountId },
    // The partner's message: URLs redacted and bounded like job errors.
    `onActivate failed: ${redactText(result.error.message).slice(0, 2000)}`,
  );
  return { ok: false, error: result.error.code };
}
