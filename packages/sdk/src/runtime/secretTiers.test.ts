import { describe, expect, it } from 'vitest';
import { isAdminOnlySecret, resolveSecretTier, SECRET_TIERS, type SecretTier } from './secretTiers.js';

const holding =
  (...tiers: SecretTier[]) =>
  (tier: SecretTier) =>
    tiers.includes(tier);

describe('secret tiers', () => {
  it('resolves account, then source, then global', () => {
    expect(SECRET_TIERS).toEqual(['account', 'source', 'global']);
    const values: Partial<Record<SecretTier, string>> = { global: 'g', source: 's', account: 'a' };
    expect(resolveSecretTier((tier) => values[tier])).toBe('a');
    delete values.account;
    expect(resolveSecretTier((tier) => values[tier])).toBe('s');
    delete values.source;
    expect(resolveSecretTier((tier) => values[tier])).toBe('g');
    expect(resolveSecretTier(() => undefined)).toBeUndefined();
  });

  it('refuses an account write only for a name the admin tiers alone hold', () => {
    expect(isAdminOnlySecret(holding('source'))).toBe(true);
    expect(isAdminOnlySecret(holding('global'))).toBe(true);
    expect(isAdminOnlySecret(holding('account', 'global'))).toBe(false);
    expect(isAdminOnlySecret(holding())).toBe(false);
  });
});
