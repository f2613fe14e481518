import { type ConnectionDeclaration, EgressDeniedError } from '@platform/sdk/integration';
import { connectionAuthorization, redactText } from '@platform/sdk/runtime';
import type { EgressFetch } from '@platform/sdk/server';
import type { Queryable } from '../db/Db.js';
import type { HostServices } from '../HostServices.js';
import type { SecretBox } from '../secrets/SecretBox.js';
import { securityEvent } from '../security/securityEvent.js';
import type { InstalledVersion } from '../store/integrations.js';
import { readSecret, type SecretScope, writeSecret } from '../store/secrets.js';

/** The entered values of a connection's fields, by field name. */
export type ConnectionValues = Readonly<Record<string, string>>;

/** The `Authorization` value a connection's fields make (the sdk's rule, shared with the harness). */
export const authorizationValue = connectionAuthorization;

/** The stored values of every field (account tier first, as `ctx.secrets` reads), or undefined when one is missing. */
export async function readConnectionValues(
  db: Queryable,
  box: SecretBox,
  scope: SecretScope,
  connection: ConnectionDeclaration,
): Promise<ConnectionValues | undefined> {
  const values: Record<string, string> = {};
  for (const field of connection.fields) {
    const value = await readSecret(db, box, scope, field.name);
    if (value === undefined) return undefined;
    values[field.name] = value;
  }
  return values;
}

/** When each field was last stored for the account (account tier only); nothing is decrypted. */
export async function connectionFieldTimes(
  db: Queryable,
  slug: string,
  accountId: string,
  connection: ConnectionDeclaration,
): Promise<Map<string, Date>> {
  const { rows } = await db.query(
    `SELECT name, updated_at FROM secrets WHERE integration_slug = $1 AND tier = 'account' AND owner_id = $2 AND name = ANY($3)`,
    [slug, accountId, connection.fields.map((field) => field.name)],
  );
  return new Map(rows.map((row) => [row.name as string, new Date(row.updated_at as string)]));
}

/** What `verify` answered: accepted (2xx), or why not, in words that quote no credential. */
export type VerifyOutcome = { ok: true; status: number } | { ok: false; status?: number; reason: string };

/**
 * Sends the connection's `verify` request with the fields' `Authorization` through the host's
 * egress-checked fetch; 2xx accepts them. A refused origin or a network failure is a failure too.
 */
export async function verifyConnection(
  fetch: EgressFetch,
  input: {
    connection: ConnectionDeclaration;
    egress: readonly string[];
    values: ConnectionValues;
    onPrivateAddress?: (error: EgressDeniedError) => void;
  },
): Promise<VerifyOutcome> {
  const { verify } = input.connection;
  try {
    const response = await fetch(
      {
        url: verify.url,
        method: verify.method,
        headers: [
          ['authorization', authorizationValue(input.connection, input.values)],
          ['accept', 'application/json'],
        ],
        body: null,
      },
      input.egress,
    );
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return {
      ok: false,
      status: response.status,
      reason: `${verify.method} ${new URL(verify.url).origin}${new URL(verify.url).pathname} answered ${response.status}`,
    };
  } catch (error) {
    if (error instanceof EgressDeniedError) {
      if (error.reason === 'private-address') input.onPrivateAddress?.(error);
      return { ok: false, reason: `egress refused ${error.origin}: ${error.reason ?? error.message}` };
    }
    return { ok: false, reason: `the verify request failed: ${(error as Error).message ?? String(error)}` };
  }
}

/**
 * Verifies the entered values and, on 2xx only, stores them encrypted as account-tier secrets in
 * one transaction (the route's PUT and `admin connection set`). The failure's reason names no
 * entered value. Every declared field must be in `values` (the callers check).
 */
export async function setConnectionFields(
  services: Pick<HostServices, 'db' | 'secretBox' | 'fetch' | 'logger'>,
  input: {
    version: InstalledVersion;
    connection: ConnectionDeclaration;
    accountId: string;
    values: ConnectionValues;
    /** Who and where, for the log lines and the `egress_private_address` event. */
    identity: Readonly<Record<string, unknown>>;
  },
): Promise<VerifyOutcome> {
  const slug = input.version.slug;
  const identity = { integration: slug, accountId: input.accountId, ...input.identity };
  const outcome = await verifyConnection(services.fetch, {
    connection: input.connection,
    egress: input.version.manifest.egress,
    values: input.values,
    onPrivateAddress: (error) =>
      securityEvent(
        services.logger,
        'egress_private_address',
        { ...identity, origin: error.origin },
        error.message,
      ),
  });
  if (!outcome.ok) {
    const reason = withoutValues(redactText(outcome.reason), Object.values(input.values));
    services.logger.warn({ ...identity, reason }, 'connection verify failed; nothing stored');
    return { ...outcome, reason };
  }
  const scope = { slug, accountId: input.accountId, sourceId: input.version.sourceId };
  await services.db.transaction(async (tx) => {
    for (const [name, value] of Object.entries(input.values)) {
      await writeSecret(tx, services.secretBox, { scope, tier: 'account', name, value });
    }
  });
  services.logger.info(identity, 'connection verified and stored');
  return outcome;
}

// A reason may quote what the vendor or the network said: never a value the account entered.
function withoutValues(text: string, values: readonly string[]): string {
  return values.reduce(
    (result, value) => (value === '' ? result : result.split(value).join('[redacted]')),
    text,
  );
}

/** Longest value one field may hold (an API key, a password). */
export const CONNECTION_FIELD_MAX_LENGTH = 4096;

/**
 * Why `values` cannot be a connection's fields (a missing, empty, too long or undeclared one), or
 * undefined when every declared field is a non-empty string and nothing else is there.
 */
export function fieldsProblem(
  connection: ConnectionDeclaration,
  values: Readonly<Record<string, unknown>>,
): string | undefined {
  const declared = new Set(connection.fields.map((field) => field.name));
  const unknown = Object.keys(values).find((name) => !declared.has(name));
  if (unknown !== undefined) return `fields.${unknown}: the connection declares no such field.`;
  for (const { name } of connection.fields) {
    const value = values[name];
    if (typeof value !== 'string' || value === '') return `fields.${name}: a non-empty string is required.`;
    if (value.length > CONNECTION_FIELD_MAX_LENGTH) {
      return `fields.${name}: at most ${CONNECTION_FIELD_MAX_LENGTH} characters.`;
    }
  }
  return undefined;
}
