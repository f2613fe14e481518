import { attachesConnectionAuthorization, connectionAuthorization } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';

describe('connectionAuthorization', () => {
  it('fills the apiKey template with every named field', () => {
    expect(
      connectionAuthorization(
        { kind: 'apiKey', header: 'Token {apiKey} org={org}' },
        { apiKey: 'k1', org: 'acme' },
      ),
    ).toBe('Token k1 org=acme');
  });

  it('sends Basic base64(username:password) in UTF-8', () => {
    expect(connectionAuthorization({ kind: 'basic' }, { username: 'bot', password: 'pässword' })).toBe(
      `Basic ${Buffer.from('bot:pässword', 'utf8').toString('base64')}`,
    );
  });
});

describe('attachesConnectionAuthorization', () => {
  const connection = { authorization: { origins: ['https://api.acme.com'] } };
  it('only for a declared origin, and never over an Authorization the handler sent', () => {
    expect(attachesConnectionAuthorization(connection, 'https://api.acme.com/v1/x', [])).toBe(true);
    expect(attachesConnectionAuthorization(connection, 'https://api.acme.com:8443/v1/x', [])).toBe(false);
    expect(attachesConnectionAuthorization(connection, 'https://evil.example/v1/x', [])).toBe(false);
    expect(
      attachesConnectionAuthorization(connection, 'https://api.acme.com/v1/x', [
        ['Authorization', 'Bearer mine'],
      ]),
    ).toBe(false);
    expect(attachesConnectionAuthorization({}, 'https://api.acme.com/v1/x', [])).toBe(false);
    expect(attachesConnectionAuthorization(connection, 'not a url', [])).toBe(false);
  });
});
