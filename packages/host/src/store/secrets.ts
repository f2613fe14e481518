import { resolveSecretTier, type SecretTier } from '@platform/sdk/runtime';
import type { Queryable } from '../db/Db.js';
import type { SecretBox } from '../secrets/SecretBox.js';

export type { SecretTier };

/** Whose secret a row is: the account (account tier), the source (source tier), nobody (global). */
export interface SecretScope {
  readonly slug: string;
  readonly accountId: string;
  readonly sourceId: string;
}

const ownerOf = (tier: SecretTier, scope: SecretScope): string =>
  tier === 'account' ? scope.accountId : tier === 'source' ? scope.sourceId : '';

// Bound into the ciphertext: a row copied to another integration, tier, owner or name will not decrypt.
const contextOf = (slug: string, tier: SecretTier, owner: string, name: string) =>
  `${slug}\n${tier}\n${owner}\n${name}`;

/** Which tiers hold a name for this scope (without decrypting anything). */
export async function secretTiers(db: Queryable, scope: SecretScope, name: string): Promise<Set<SecretTier>> {
  const { rows } = await db.query(
    `SELECT tier FROM secrets WHERE integration_slug = $1 AND name = $2 AND (
       (tier = 'account' AND owner_id = $3) OR (tier = 'source' AND owner_id = $4) OR (tier = 'global' AND owner_id = ''))`,
    [scope.slug, name, scope.accountId, scope.sourceId],
  );
  return new Set(rows.map((row) => row.tier as SecretTier));
}

/** Resolves a secret in the sdk's tier order (account, then source, then global). */
export async function readSecret(
  db: Queryable,
  box: SecretBox,
  scope: SecretScope,
  name: string,
): Promise<string | undefined> {
  const { rows } = await db.query(
    `SELECT tier, owner_id, ciphertext FROM secrets WHERE integration_slug = $1 AND name = $2 AND (
       (tier = 'account' AND owner_id = $3) OR (tier = 'source' AND owner_id = $4) OR (tier = 'global' AND owner_id = ''))`,
    [scope.slug, name, scope.accountId, scope.sourceId],
  );
  const row = resolveSecretTier((tier) => rows.find((candidate) => candidate.tier === tier));
  if (row === undefined) return undefined;
  return box.decrypt(
    row.ciphertext as string,
    contextOf(scope.slug, row.tier as SecretTier, row.owner_id as string, name),
  );
}

/**
 * Encrypts and stores a secret in one tier, replacing its value (admin tiers, tests, benchmarks).
 * @example await writeSecret(db, box, { scope: { slug, accountId, sourceId }, tier: 'account', name: 'GITHUB_WEBHOOK_SECRET', value });
 */
export async function writeSecret(
  db: Queryable,
  box: SecretBox,
  input: { scope: SecretScope; tier: SecretTier; name: string; value: string },
): Promise<void> {
  const owner = ownerOf(input.tier, input.scope);
  const ciphertext = box.encrypt(input.value, contextOf(input.scope.slug, input.tier, owner, input.name));
  await db.query(
    `INSERT INTO secrets (integration_slug, tier, owner_id, name, ciphertext) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (integration_slug, tier, owner_id, name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = now()`,
    [input.scope.slug, input.tier, owner, input.name, ciphertext],
  );
}
