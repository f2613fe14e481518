import { EgressDeniedError } from '@platform/sdk/integration';
import { describe, expect, it } from 'vitest';
import { exchangeCode } from './exchangeCode.js';
import { OAuthFailure } from './OAuthFailure.js';

const input = {
  tokenUrl: 'https://auth.acme.test/token',
  tokenAuthMethod: 'client_secret_basic' as const,
  egress: ['https://auth.acme.test'],
  credentials: { clientId: 'id', clientSecret: 'secret' },
  code: 'the-code',
  redirectUri: 'https://host.test/api/integrations/acme/oauth/callback',
  codeVerifier: undefined,
  now: new Date('2026-01-01T00:00:00Z'),
};

describe('exchangeCode: a token endpoint on a private address', () => {
  it('tells the caller (for the security event) and fails with exchange_failed, naming no code or secret', async () => {
    const refused: EgressDeniedError[] = [];
    const denied = new EgressDeniedError(
      'https://auth.acme.test',
      'refused: 10.0.0.7 is private',
      'private-address',
    );
    const failure = await exchangeCode(
      async () => {
        throw denied;
      },
      { ...input, onPrivateAddress: (error) => refused.push(error) },
    ).catch((error: unknown) => error);
    expect(refused).toEqual([denied]);
    expect(failure).toBeInstanceOf(OAuthFailure);
    expect(failure).toMatchObject({ code: 'exchange_failed' });
    expect(JSON.stringify(failure)).not.toMatch(/the-code|secret"/);
  });

  it('does not report other refusals as private addresses', async () => {
    const refused: EgressDeniedError[] = [];
    await exchangeCode(
      async () => {
        throw new EgressDeniedError('https://auth.acme.test', 'not in egress', 'egress');
      },
      { ...input, onPrivateAddress: (error) => refused.push(error) },
    ).catch(() => {});
    expect(refused).toEqual([]);
  });
});
