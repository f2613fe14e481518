import type { DefinitionManifest } from '@platform/sdk/runtime';
import { type ClientCredentials, OAuthFailure } from '@platform/sdk/server';
import type { Queryable } from '../db/Db.js';
import type { SecretBox } from '../secrets/SecretBox.js';
import type { InstalledVersion } from '../store/integrations.js';
import { readSecret } from '../store/secrets.js';

type OAuthManifest = NonNullable<DefinitionManifest['oauth']>;

/**
 * The OAuth client id and secret, read through the secret tiers (account, source, global) from
 * the names the definition declares. Throws `OAuthFailure('not_configured')` naming the missing
 * secret (its name only) when either cannot be resolved.
 * @example const { clientId, clientSecret } = await readClientCredentials(db, box, { version, oauth, accountId });
 */
export async function readClientCredentials(
  db: Queryable,
  box: SecretBox,
  input: { version: InstalledVersion; oauth: OAuthManifest; accountId: string },
): Promise<ClientCredentials> {
  const scope = { slug: input.version.slug, accountId: input.accountId, sourceId: input.version.sourceId };
  const read = async (name: string) => {
    let value: string | undefined;
    try {
      value = await readSecret(db, box, scope, name);
    } catch (error) {
      // A row that no longer decrypts (key rotated, row moved) is as good as missing.
      throw new OAuthFailure('not_configured', `the secret "${name}" could not be decrypted; set it again`, {
        reason: (error as Error).message,
      });
    }
    if (value === undefined || value === '') {
      throw new OAuthFailure(
        'not_configured',
        `the secret "${name}" is not set for this account; an admin must add it (source or global tier) before users can connect`,
      );
    }
    return value;
  };
  const clientId = await read(input.oauth.credentials.clientIdSecretName);
  const clientSecret = await read(input.oauth.credentials.clientSecretSecretName);
  return { clientId, clientSecret };
}
