/**
 * The secret tiers in the order a name resolves: the account's own (what `ctx.secrets.set` and
 * `onTokens` write), then the source's, then global (both admin-added). Host, harness and the
 * memory capabilities all resolve through this order.
 */
export const SECRET_TIERS = ['account', 'source', 'global'] as const;
export type SecretTier = (typeof SECRET_TIERS)[number];

/**
 * What a name resolves to: the first tier, in `SECRET_TIERS` order, whose lookup answers.
 * @example resolveSecretTier((tier) => rows.find((row) => row.tier === tier)) // the account row if any, else source, else global
 */
export function resolveSecretTier<T>(lookup: (tier: SecretTier) => T | undefined): T | undefined {
  for (const tier of SECRET_TIERS) {
    const found = lookup(tier);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether `ctx.secrets.set(name)` must be refused with `SecretAccessError`: it writes the account
 * tier, and a name that only the admin tiers (source, global) hold belongs to the admin.
 * @example isAdminOnlySecret((tier) => tiers.has(tier))
 */
export function isAdminOnlySecret(holds: (tier: SecretTier) => boolean): boolean {
  return !holds('account') && (holds('source') || holds('global'));
}
