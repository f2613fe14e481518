import type { ConnectionDeclaration } from '@platform/sdk/integration';
import { connectionAuthorization, redactText } from '@platform/sdk/runtime';
import { type Context, Hono } from 'hono';
import { entryEgress } from '../../fixtures/index.js';
import type { HarnessRegistryEntry } from '../../types.js';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';

/**
 * The host's connection route for a definition that declares `connection` (apiKey or basic), on
 * the live store:
 * - `GET connection` -> `{ kind, connected, fields: [{ name, label, secret, set }] }`, never a value;
 * - `PUT connection` body `{ fields: { <name>: <value> } }` (live mode only): sends `verify` with
 *   the `Authorization` the fields make through the entry's egress; 2xx stores them as the live
 *   store's account secrets (what `ctx.secrets` reads there), anything else stores nothing and
 *   answers 422 `verify_failed`.
 */
export function connectionRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  const describe = async (entry: HarnessRegistryEntry, connection: ConnectionDeclaration) => {
    const stored = (await api.liveStore.read(entry.slug)).secrets.account;
    const fields = connection.fields.map(({ name, label, secret }) => ({
      name,
      label,
      secret,
      set: Object.hasOwn(stored, name),
    }));
    return { kind: connection.kind, connected: fields.every((field) => field.set), fields };
  };

  app.get('/connection', async (c) => {
    const entry = c.get('call').entry;
    const connection = declared(c, entry);
    if (connection instanceof Response) return connection;
    return c.json({ ok: true, data: await describe(entry, connection) });
  });

  app.put('/connection', async (c) => {
    const call = c.get('call');
    const connection = declared(c, call.entry);
    if (connection instanceof Response) return connection;
    if (call.mode !== 'live') {
      return errorResponse(
        c,
        400,
        'invalid_request',
        'A connection is entered in live mode only (it calls the vendor); switch the toolbar to live.',
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      body = undefined;
    }
    const fields = (body as { fields?: unknown } | undefined)?.fields;
    const values: Record<string, string> = {};
    for (const { name } of connection.fields) {
      const value =
        typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>)[name] : undefined;
      if (typeof value !== 'string' || value === '') {
        return errorResponse(c, 400, 'invalid_input', `fields.${name}: a non-empty string is required.`);
      }
      values[name] = value;
    }
    const { verify } = connection;
    let status: number | undefined;
    let reason: string | undefined;
    try {
      const response = await api.liveFetch(
        {
          url: verify.url,
          method: verify.method,
          headers: [
            ['authorization', connectionAuthorization(connection, values)],
            ['accept', 'application/json'],
          ],
          body: null,
        },
        entryEgress(call.entry),
      );
      status = response.status;
      if (status < 200 || status >= 300)
        reason = `${verify.method} ${new URL(verify.url).pathname} answered ${status}`;
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    if (reason !== undefined) {
      const said = Object.values(values).reduce(
        (text, value) => text.split(value).join('[redacted]'),
        redactText(reason),
      );
      api.log(`[harness] connection verify failed for ${call.entry.slug}: ${said}; nothing stored`);
      return errorResponse(
        c,
        422,
        'verify_failed',
        `The vendor refused the fields: ${said}. Nothing was stored.`,
        {
          ...(status === undefined ? {} : { status }),
        },
      );
    }
    await api.liveStore.update(call.entry.slug, (state) => {
      for (const [name, value] of Object.entries(values)) state.secrets.account[name] = value;
    });
    api.log(
      `[harness] connection verified and stored for ${call.entry.slug} (${Object.keys(values).join(', ')})`,
    );
    return c.json({ ok: true, data: await describe(call.entry, connection) });
  });
  return app;
}

function declared(c: Context<HarnessEnv>, entry: HarnessRegistryEntry): ConnectionDeclaration | Response {
  const connection = entry.definition?.connection;
  if (connection !== undefined) return connection;
  return errorResponse(
    c,
    404,
    'not_configured',
    `Integration "${entry.slug}" declares no connection; add connection (apiKey or basic) to its definition.`,
  );
}
