import { defineIntegration, OAuthConnectionRefusedError, type Tokens } from '@platform/sdk/integration';
import { runOnTokens } from '@platform/sdk/runtime';
import { createMockContext } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';

const tokens: Tokens = {
  accessToken: 'at-1',
  refreshToken: 'rt-1',
  expiresAt: '2026-12-01T00:00:00.000Z',
  scope: 'notes.read',
  tokenType: 'Bearer',
  raw: { workspace_id: 'w1' },
};

function oauthIntegration(onTokens: (ctx: any, tokens: Tokens) => Promise<void>) {
  return defineIntegration({
    slug: 'acme-notes',
    egress: ['https://auth.acme.com'],
    oauth: {
      provider: {
        authorizationUrl: 'https://auth.acme.com/authorize',
        tokenUrl: 'https://auth.acme.com/token',
        scopes: ['notes.read'],
      },
      credentials: { clientIdSecretName: 'ACME_CLIENT_ID', clientSecretSecretName: 'ACME_CLIENT_SECRET' },
      onTokens,
    },
  });
}

describe('runOnTokens', () => {
  it('hands onTokens the Tokens object; tokens land in account-tier secrets', async () => {
    const definition = oauthIntegration(async (ctx, received) => {
      await ctx.secrets.set('ACME_ACCESS_TOKEN', received.accessToken);
    });
    const ctx = createMockContext(definition);
    expect(await runOnTokens(definition, ctx, tokens)).toEqual({ ok: true });
    expect(ctx.mock.secrets.account.get('ACME_ACCESS_TOKEN')).toBe('at-1');
  });

  it.each(['wrong_workspace', 'organization_access'] as const)(
    'maps a refusal with %s to that code',
    async (reason) => {
      const definition = oauthIntegration(async () => {
        throw new OAuthConnectionRefusedError(reason);
      });
      const result = await runOnTokens(definition, createMockContext(definition), tokens);
      expect(result).toMatchObject({ ok: false, error: { code: reason } });
    },
  );

  it('maps any other failure, such as writing an admin-only secret, to save_failed', async () => {
    const definition = oauthIntegration(async (ctx, received) => {
      await ctx.secrets.set('ACME_CLIENT_SECRET', received.accessToken);
    });
    const ctx = createMockContext(definition, { secrets: { global: { ACME_CLIENT_SECRET: 'cs' } } });
    const result = await runOnTokens(definition, ctx, tokens);
    expect(result).toMatchObject({ ok: false, error: { code: 'save_failed' } });
    if (!result.ok) expect(result.error.message).toContain('SecretAccessError');
    expect(ctx.mock.secrets.account.has('ACME_CLIENT_SECRET')).toBe(false);
  });

  it('answers not_configured for an integration without oauth', async () => {
    const bare = defineIntegration({ slug: 'bare' });
    expect(await runOnTokens(bare, createMockContext(bare), tokens)).toMatchObject({
      ok: false,
      error: { code: 'not_configured' },
    });
  });
});
