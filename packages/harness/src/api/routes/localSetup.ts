import { Hono } from 'hono';
import type { HarnessRegistryEntry } from '../../types.js';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';
import { LOCAL_SECRETS_FILE, parseSecretsChange } from '../localSecrets.js';

/** An admin credential an entry needs in live mode. */
export interface LocalCredential {
  readonly name: string;
  readonly kind: 'oauth_client_id' | 'oauth_client_secret' | 'webhook_signing_secret';
  /** For `webhook_signing_secret`: the webhook that declares it. */
  readonly webhookId?: string;
  /** Whether `.platform/local-secrets.json` holds a value for it (the value itself is never sent). */
  readonly set: boolean;
}

/**
 * `GET|POST /api/integrations/<slug>/local-setup`: live mode's admin tiers (source/global), kept in
 * `.platform/local-secrets.json`. GET names the credentials the entry needs and which are set; POST
 * `{ secrets: { NAME: value | null } }` merges values into the file (null removes a name) and
 * answers as GET. Values never leave the server and never reach the log.
 */
export function localSetupRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  const describe = async (entry: HarnessRegistryEntry) => {
    const secrets = await api.localSecrets.read();
    const credentials = neededCredentials(entry).map((credential) => ({
      ...credential,
      set: Object.hasOwn(secrets, credential.name),
    }));
    const needed = new Set(credentials.map((credential) => credential.name));
    return {
      file: LOCAL_SECRETS_FILE,
      live: entry.live !== undefined,
      credentials,
      otherNames: Object.keys(secrets).filter((name) => !needed.has(name)),
    };
  };

  app.get('/local-setup', async (c) => c.json({ ok: true, data: await describe(c.get('call').entry) }));

  app.post('/local-setup', async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return errorResponse(
        c,
        400,
        'invalid_input',
        'The body is not JSON; send { "secrets": { "NAME": "value" } }.',
      );
    }
    const parsed = parseSecretsChange(body);
    if (!parsed.ok) {
      return errorResponse(c, 400, 'invalid_input', `local-setup refused: ${parsed.problems.join('; ')}.`, {
        problems: parsed.problems,
      });
    }
    await api.localSecrets.update((secrets) => {
      for (const [name, value] of Object.entries(parsed.change)) {
        if (value === null) delete secrets[name];
        else secrets[name] = value;
      }
    });
    const names = Object.entries(parsed.change);
    const set = names.filter(([, value]) => value !== null).map(([name]) => name);
    const removed = names.filter(([, value]) => value === null).map(([name]) => name);
    api.log(
      `[harness] ${LOCAL_SECRETS_FILE}: ${[set.length > 0 ? `set ${set.join(', ')}` : '', removed.length > 0 ? `removed ${removed.join(', ')}` : ''].filter(Boolean).join('; ')}`,
    );
    return c.json({ ok: true, data: await describe(c.get('call').entry) });
  });
  return app;
}

/**
 * The admin-tier secret names an entry's definition reads: OAuth client credentials and webhook signing secrets.
 * @example neededCredentials(entry) // [{ name: 'ACME_CLIENT_ID', kind: 'oauth_client_id' }, ...]
 */
export function neededCredentials(entry: HarnessRegistryEntry): Omit<LocalCredential, 'set'>[] {
  const definition = entry.definition;
  const credentials: Omit<LocalCredential, 'set'>[] = [];
  if (definition?.oauth !== undefined) {
    const { clientIdSecretName, clientSecretSecretName } = definition.oauth.credentials;
    credentials.push({ name: clientIdSecretName, kind: 'oauth_client_id' });
    credentials.push({ name: clientSecretSecretName, kind: 'oauth_client_secret' });
  }
  for (const webhook of definition?.webhooks ?? []) {
    if (webhook.signature !== undefined) {
      credentials.push({
        name: webhook.signature.secretName,
        kind: 'webhook_signing_secret',
        webhookId: webhook.id,
      });
    }
  }
  return credentials;
}
