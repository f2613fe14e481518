import type { ConnectionDeclaration } from '@platform/sdk/integration';
import { redactText } from '@platform/sdk/runtime';
import { Hono } from 'hono';
import { connectionFieldTimes, verifyConnection } from '../connection/fieldConnection.js';
import type { HostServices } from '../HostServices.js';
import { securityEvent } from '../security/securityEvent.js';
import type { InstalledVersion } from '../store/integrations.js';
import { writeSecret } from '../store/secrets.js';
import { membershipRole } from '../store/users.js';
import { ACCOUNT_MANAGERS } from './_account.js';
import { checkStateChange } from './_auth.js';
import { type CallTarget, resolveCall } from './_call.js';
import { RouteError, requestIdOf } from './_errors.js';
import { invalidInput, jsonBody } from './_jsonBody.js';

/** Longest value one field may hold (an API key, a password). */
export const CONNECTION_FIELD_MAX_LENGTH = 4096;

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
    const values = readFields(connection, await jsonBody(services.limits, c, usageOf(connection)));
    const slug = target.version.slug;
    const identity = {
      integration: slug,
      accountId: target.accountId,
      userId: target.user.id,
      requestId: requestIdOf(c),
    };
    const outcome = await verifyConnection(services.fetch, {
      connection,
      egress: target.version.manifest.egress,
      values,
      onPrivateAddress: (error) =>
        securityEvent(
          services.logger,
          'egress_private_address',
          { ...identity, origin: error.origin },
          error.message,
        ),
    });
    if (!outcome.ok) {
      const reason = withoutValues(redactText(outcome.reason), Object.values(values));
      services.logger.warn({ ...identity, reason }, 'connection verify failed; nothing stored');
      throw new RouteError(
        422,
        'verify_failed',
        `The vendor refused the ${connection.kind === 'basic' ? 'username and password' : 'fields'}: ${reason}. Nothing was stored; check them and send them again.`,
        outcome.status === undefined ? {} : { status: outcome.status },
      );
    }
    const scope = { slug, accountId: target.accountId, sourceId: target.version.sourceId };
    await services.db.transaction(async (tx) => {
      for (const [name, value] of Object.entries(values)) {
        await writeSecret(tx, services.secretBox, { scope, tier: 'account', name, value });
      }
    });
    services.logger.info(identity, 'connection verified and stored');
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

// Every declared field, a non-empty string; no other name.
function readFields(
  connection: ConnectionDeclaration,
  body: Record<string, unknown>,
): Record<string, string> {
  const usage = usageOf(connection);
  const fields = body.fields;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw invalidInput(usage, "fields must be an object of the connection's field values.");
  }
  const declared = new Set(connection.fields.map((field) => field.name));
  const unknown = Object.keys(fields).filter((name) => !declared.has(name));
  if (unknown.length > 0) {
    throw invalidInput(usage, `fields.${unknown[0]}: the connection declares no such field.`);
  }
  const values: Record<string, string> = {};
  for (const { name } of connection.fields) {
    const value = (fields as Record<string, unknown>)[name];
    if (typeof value !== 'string' || value === '') {
      throw invalidInput(usage, `fields.${name}: a non-empty string is required.`);
    }
    if (value.length > CONNECTION_FIELD_MAX_LENGTH) {
      throw invalidInput(usage, `fields.${name}: at most ${CONNECTION_FIELD_MAX_LENGTH} characters.`);
    }
    values[name] = value;
  }
  return values;
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

// A reason may quote what the vendor or the network said: never a value the account entered.
function withoutValues(text: string, values: readonly string[]): string {
  return values.reduce(
    (result, value) => (value === '' ? result : result.split(value).join('[redacted]')),
    text,
  );
}
