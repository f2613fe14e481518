import { parseDefinition } from '@platform/integration-schema';
import { describe, expect, it } from 'vitest';

type Dict = Record<string, unknown>;

const apiKey = (extra: Dict = {}) => ({
  kind: 'apiKey',
  fields: [{ name: 'apiKey', label: 'API key', secret: true }],
  header: 'Bearer {apiKey}',
  verify: { method: 'GET', url: 'https://api.acme.com/v1/me' },
  authorization: { origins: ['https://api.acme.com'] },
  ...extra,
});
const definition = (connection: unknown, extra: Dict = {}) => ({
  slug: 'acme',
  egress: ['https://api.acme.com'],
  connection,
  ...extra,
});

function problems(input: unknown) {
  const result = parseDefinition(input);
  return result.ok ? [] : result.problems;
}

describe('connection (apiKey and basic)', () => {
  it('accepts an apiKey connection and a basic one', () => {
    expect(problems(definition(apiKey()))).toEqual([]);
    expect(
      problems(
        definition({
          kind: 'basic',
          fields: [
            { name: 'username', label: 'User', secret: false },
            { name: 'password', label: 'Password', secret: true },
          ],
          verify: { method: 'HEAD', url: 'https://api.acme.com/ping' },
        }),
      ),
    ).toEqual([]);
  });

  it('refuses unknown keys and kinds (strict)', () => {
    expect(problems(definition(apiKey({ headerName: 'X-Key' }))).map((p) => p.path)).toEqual(['connection']);
    expect(problems(definition(apiKey({ kind: 'oauth' }))).map((p) => p.path)).toEqual(['connection.kind']);
    expect(problems(definition(apiKey({ fields: [] }))).map((p) => p.path)).toContain('connection.fields');
  });

  it('checks the header template against the fields', () => {
    expect(problems(definition(apiKey({ header: 'Token {key}' })))).toEqual([
      {
        path: 'connection.header',
        message: 'header names "{key}", which connection.fields does not declare',
      },
    ]);
    expect(problems(definition(apiKey({ header: 'Bearer x' })))[0]?.path).toBe('connection.header');
    expect(problems(definition(apiKey({ header: undefined })))[0]?.message).toMatch(/needs header/);
  });

  it('needs username and password for basic, and no header', () => {
    const found = problems(
      definition({
        kind: 'basic',
        fields: [{ name: 'user', label: 'User', secret: false }],
        header: 'Basic {user}',
        verify: { method: 'GET', url: 'https://api.acme.com/ping' },
      }),
    );
    expect(found.map((p) => p.message)).toEqual([
      'a basic connection needs a field named "username"; add it',
      'a basic connection needs a field named "password"; add it',
      'a basic connection sends "Basic <username:password>"; remove header',
    ]);
  });

  it('checks field names and their uniqueness', () => {
    const found = problems(
      definition(
        apiKey({
          fields: [
            { name: 'apiKey', label: 'A', secret: true },
            { name: 'apiKey', label: 'B', secret: true },
            { name: '1bad-name', label: 'C', secret: false },
          ],
        }),
      ),
    );
    expect(found.map((p) => p.path)).toEqual(['connection.fields.2.name', 'connection.fields']);
  });

  it('checks verify.url and the origins against egress, like OAuth URLs', () => {
    const found = problems(
      definition(
        apiKey({
          verify: { method: 'GET', url: 'http://api.acme.com/me' },
          authorization: { origins: ['https://other.acme.com', 'https://api.acme.com/v1'] },
        }),
      ),
    );
    expect(found).toEqual([
      { path: 'connection.verify.url', message: '"http://api.acme.com/me" must use https://' },
      {
        path: 'connection.authorization.origins.0',
        message:
          'origin https://other.acme.com is not covered by egress; add "https://other.acme.com" to egress',
      },
      {
        path: 'connection.authorization.origins.1',
        message: '"https://api.acme.com/v1" must be an origin only; write "https://api.acme.com"',
      },
    ]);
    expect(problems(definition(apiKey(), { egress: [] }))[0]?.path).toBe('connection.verify.url');
  });

  it('refuses oauth and connection together', () => {
    const oauth = {
      provider: {
        authorizationUrl: 'https://api.acme.com/a',
        tokenUrl: 'https://api.acme.com/t',
        scopes: [],
      },
      credentials: { clientIdSecretName: 'ID', clientSecretSecretName: 'SECRET' },
      onTokens: () => undefined,
    };
    expect(problems(definition(apiKey(), { oauth })).map((p) => p.path)).toEqual(['connection']);
  });
});
