import type { CapabilityFetchRequest, CapabilityFetchResponse } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import type { EgressFetch } from '../egress/EgressFetch.js';
import { refreshTokens, TokenRefreshError } from './refreshTokens.js';

const now = new Date('2026-01-01T00:00:00Z');
const input = {
  tokenUrl: 'https://auth.acme.test/token',
  tokenAuthMethod: 'client_secret_basic' as const,
  egress: ['https://auth.acme.test'],
  credentials: { clientId: 'id with space', clientSecret: 'se:cret' },
  refreshToken: 'the-refresh-token',
  now,
};

/** A token endpoint answering `status` with `body` (JSON), recording each request it got. */
function endpoint(status: number, body: unknown) {
  const seen: CapabilityFetchRequest[] = [];
  const fetch: EgressFetch = async (request) => {
    seen.push(request);
    const response: CapabilityFetchResponse = {
      status,
      statusText: '',
      headers: [['content-type', 'application/json']],
      body: Buffer.from(JSON.stringify(body)).toString('base64'),
    };
    return response;
  };
  const form = (at = 0) =>
    Object.fromEntries(new URLSearchParams(Buffer.from(seen[at]!.body ?? '', 'base64').toString('utf8')));
  const header = (name: string, at = 0) => seen[at]!.headers?.find(([key]) => key === name)?.[1];
  return { fetch, seen, form, header };
}

describe('refreshTokens', () => {
  it('sends the refresh grant with HTTP Basic (form-encoded id and secret) and maps the answer', async () => {
    const server = endpoint(200, {
      access_token: 'new-at',
      refresh_token: 'new-rt',
      expires_in: 60,
      token_type: 'Bearer',
      scope: 'read',
    });
    const tokens = await refreshTokens(server.fetch, input);
    expect(tokens).toEqual({
      accessToken: 'new-at',
      refreshToken: 'new-rt',
      expiresAt: '2026-01-01T00:01:00.000Z',
      tokenType: 'Bearer',
      scope: 'read',
    });
    expect(server.seen[0]).toMatchObject({ url: input.tokenUrl, method: 'POST' });
    expect(server.form()).toEqual({ grant_type: 'refresh_token', refresh_token: 'the-refresh-token' });
    expect(server.header('authorization')).toBe(
      `Basic ${Buffer.from('id+with+space:se%3Acret').toString('base64')}`,
    );
  });

  it('puts the client in the form with client_secret_post, and asks for a scope when given one', async () => {
    const server = endpoint(200, { access_token: 'new-at' });
    const tokens = await refreshTokens(server.fetch, {
      ...input,
      tokenAuthMethod: 'client_secret_post',
      scope: 'read',
    });
    expect(tokens).toEqual({ accessToken: 'new-at' });
    expect(tokens.refreshToken).toBeUndefined();
    expect(server.form()).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'the-refresh-token',
      scope: 'read',
      client_id: 'id with space',
      client_secret: 'se:cret',
    });
    expect(server.header('authorization')).toBeUndefined();
  });

  it('reads invalid_grant as revoked, with the provider fields and no token in the message', async () => {
    const server = endpoint(400, { error: 'invalid_grant', error_description: 'grant request is invalid' });
    const error = await refreshTokens(server.fetch, input).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TokenRefreshError);
    expect(error).toMatchObject({
      kind: 'revoked',
      fields: { status: 400, error: 'invalid_grant', errorDescription: 'grant request is invalid' },
    });
    expect(JSON.stringify(error) + String(error)).not.toMatch(/the-refresh-token|se:cret/);
  });

  it('reads a 5xx, another error, an answer without access token and an unreachable endpoint as failed', async () => {
    const cases: [EgressFetch, RegExp][] = [
      [
        endpoint(503, { error: 'temporarily_unavailable' }).fetch,
        /refused the refresh \(503 temporarily_unavailable\)/,
      ],
      [endpoint(401, { error: 'invalid_client' }).fetch, /401 invalid_client/],
      [endpoint(200, { token_type: 'Bearer' }).fetch, /without an access token/],
      [
        async () => {
          throw new TypeError('the request to https://auth.acme.test timed out after 10 ms');
        },
        /could not be reached/,
      ],
    ];
    for (const [fetch, message] of cases) {
      const error = await refreshTokens(fetch, input).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(TokenRefreshError);
      expect((error as TokenRefreshError).kind).toBe('failed');
      expect((error as Error).message).toMatch(message);
    }
  });
});
