import type { ConnectionDeclaration } from '@platform/sdk/integration';
import { Hono } from 'hono';
import { connectionFieldTimes, fieldsProblem, setConnectionFields } from '../connection/fieldConnection.js';
import type { HostServices } from '../HostServices.js';
import type { InstalledVersion } from '../store/integrations.js';
import { membershipRole } from '../store/users.js';
import { ACCOUNT_MANAGERS } from './_account.js';
import { checkStateChange } from './_auth.js';
import { type CallTarget, resolveCall } from './_call.js';
import { RouteError, requestIdOf } from './_errors.js';
import { invalidInput, jsonBody } from './_jsonBody.js';

/**
 * The connection of an integration that declares `connection` (kind apiKey or basic):
 * - `GET /<slug>/connection?accountId=` -> `{ kind, connected, connectedAt?, fields: [{ name,
 *   label, secret, set, updatedAt? }], health? }`; any member may ask, no value is ever answered
 * - `PUT /<slug>/connection?accountId=` body `{ fields: { <name>: <value>, ... } }` (every declared
 *   field) -> the host sends `verify` with the `Authorization` they make through the egress-checked
 *   fetch; on 2xx they are stored encrypted as account-tier secrets named after the fields and the
 *   answer is the GET's; otherwise nothing is stored and the answer is 422 `verify_failed`.
 *   Owners and admins only (403 `forbidden` for a member). Rotation is the same PUT.
 */
export function connectionRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/:slug/connection', async (c) => {
    const target = await resolveCall(services, c, { allowInactive: true });
    const connection = declaredConnection(target.version);
    c.header('Cache-Control', 'no-store');
    return c.json({ ok: true, data: await connectionStatus(services, target, connection) });
  });

  app.put('/:slug/connection', async (c) => {
    checkStateChange(services, c, { requireJson: true });
    const target = await resolveCall(services, c, { allowInactive: true });
    const connection = declaredConnection(target.version);
    const role = await membershipRole(services.db, target.accountId, target.user.id);
    if (role === undefined || !ACCOUNT_MANAGERS.includes(role)) {
      throw new RouteError(
        403,
        'forbidden',
        'Only account owners and admins can set up a connection; ask one of them.',
      );
    }
    const body = await jsonBody(services.limits, c, usageOf(connection));
    const fields = body.fields;
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      throw invalidInput(usageOf(connection), "fields must be an object of the connection's field values.");
    }
    const problem = fieldsProblem(connection, fields as Record<string, unknown>);
    if (problem !== undefined) throw invalidInput(usageOf(connection), problem);
    const outcome = await setConnectionFields(services, {
      version: target.version,
      connection,
      accountId: target.accountId,
      values: fields as Record<string, string>,
      identity: { userId: target.user.id, requestId: requestIdOf(c) },
    });
    if (!outcome.ok) {
      throw new RouteError(
        422,
        'verify_failed',
        `The vendor refused the ${connection.kind === 'basic' ? 'username and password' : 'fields'}: ${outcome.reason}. Nothing was stored; check them and send them again.`,
        outcome.status === undefined ? {} : { status: outcome.status },
      );
    }
    return c.json({ ok: true, data: await connectionStatus(services, target, connection) });
  });

  return app;
}

function declaredConnection(version: InstalledVersion): ConnectionDeclaration {
  const connection = version.manifest.connection;
  if (connection === undefined) {
    throw new RouteError(
      404,
      'integration_not_found',
      `Integration "${version.slug}" declares no connection, so it has no connection route; add connection to its definition.`,
    );
  }
  return connection;
}

function usageOf(connection: ConnectionDeclaration): string {
  return `{ "fields": { ${connection.fields.map((field) => `"${field.name}": "..."`).join(', ')} } }`;
}

async function connectionStatus(
  services: HostServices,
  target: CallTarget,
  connection: ConnectionDeclaration,
) {
  const times = await connectionFieldTimes(services.db, target.version.slug, target.accountId, connection);
  const fields = connection.fields.map(({ name, label, secret }) => {
    const at = times.get(name);
    return {
      name,
      label,
      secret,
      set: at !== undefined,
      ...(at === undefined ? {} : { updatedAt: at.toISOString() }),
    };
  });
  const connected = fields.every((field) => field.set);
  if (!connected) return { kind: connection.kind, connected, fields };
  // Stored only after a verify answered 2xx: the newest write is the last success.
  const connectedAt = new Date(Math.max(...[...times.values()].map((date) => date.getTime()))).toISOString();
  return {
    kind: connection.kind,
    connected,
    connectedAt,
    fields,
    health: {
      state: 'healthy' as const,
      lastSuccessAt: connectedAt,
      lastFailure: null,
      nextRefreshAt: null,
      expiresAt: null,
      failingDays: 0,
    },
  };
}
