import { join } from 'node:path';
import { type JsonFile, jsonFile } from './_jsonFile.js';

/** Where live mode's admin-tier credentials live, relative to the project directory (git-ignored by the scaffold). */
export const LOCAL_SECRETS_FILE = '.platform/local-secrets.json';

/** Secret names as the harness accepts them: what a partner would type for `clientIdSecretName` and the like. */
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

/** The local secrets file: a flat JSON object of name to value, written with mode 0600. */
export type LocalSecretsFile = JsonFile<Record<string, string>>;

/**
 * `.platform/local-secrets.json` under `projectDir`, validated on every read.
 * @example const secrets = await localSecretsFile(process.cwd()).read();
 */
export function localSecretsFile(projectDir: string): LocalSecretsFile {
  return jsonFile(join(projectDir, LOCAL_SECRETS_FILE), {
    empty: () => ({}),
    parse: (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new Error('expected an object of secret names to string values');
      const out: Record<string, string> = {};
      for (const [name, secret] of Object.entries(value)) {
        if (typeof secret !== 'string') throw new Error(`the value of "${name}" is not a string`);
        out[name] = secret;
      }
      return out;
    },
  });
}

/** A secrets change as posted to `local-setup`: a value sets a name, `null` removes it. */
export type SecretsChange = Readonly<Record<string, string | null>>;

/**
 * Reads `{ secrets: { NAME: value | null } }`, or says what is wrong with it (names, never values).
 * @example parseSecretsChange({ secrets: { ACME_CLIENT_ID: 'id' } }) // { ok: true, change: { ACME_CLIENT_ID: 'id' } }
 */
export function parseSecretsChange(
  body: unknown,
): { ok: true; change: SecretsChange } | { ok: false; problems: string[] } {
  const secrets = (body as { secrets?: unknown } | null)?.secrets;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, problems: ['the body must be a JSON object { "secrets": { "NAME": "value" } }'] };
  const extra = Object.keys(body).filter((key) => key !== 'secrets');
  const problems = extra.map((key) => `unknown field "${key}"; send only "secrets"`);
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) {
    problems.push('"secrets" must be an object of secret names to string values (null removes a name)');
    return { ok: false, problems };
  }
  const entries = Object.entries(secrets);
  if (entries.length === 0) problems.push('"secrets" is empty; name at least one secret');
  for (const [name, value] of entries) {
    if (!SECRET_NAME.test(name))
      problems.push(
        `"${name}" is not a secret name (a letter or _ first, then letters, digits, _ . -; at most 128)`,
      );
    if (value !== null && typeof value !== 'string')
      problems.push(`secrets.${name} must be a string or null`);
    else if (value === '') problems.push(`secrets.${name} is empty; send null to remove the name`);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, change: secrets as SecretsChange };
}
