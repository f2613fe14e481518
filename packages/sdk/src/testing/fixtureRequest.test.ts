import { describe, expect, it } from 'vitest';
import {
  type FixtureRequest,
  findFixture,
  matchFixtureRequest,
  parseFixtureRequest,
} from './fixtureRequest.js';

const ACME = 'https://api.acme.com';
const egress = [ACME];

function parse(spec: string, allowBareTarget = false): FixtureRequest {
  return parseFixtureRequest(spec, { egress, allowBareTarget });
}

function match(spec: string, method: string, url: string): Record<string, string> | null {
  return matchFixtureRequest(parse(spec), { method, url })?.params ?? null;
}

describe('parseFixtureRequest', () => {
  it.each(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
    'accepts %s and matches only it',
    (method) => {
      const fixture = parse(`${method} /v1/notes`);
      expect(fixture).toEqual({
        method,
        origin: ACME,
        segments: [
          { kind: 'literal', value: 'v1' },
          { kind: 'literal', value: 'notes' },
        ],
        query: null,
        source: `${method} /v1/notes`,
      });
      expect(matchFixtureRequest(fixture, { method, url: `${ACME}/v1/notes` })).toEqual({ params: {} });
      const other = method === 'GET' ? 'POST' : 'GET';
      expect(matchFixtureRequest(fixture, { method: other, url: `${ACME}/v1/notes` })).toBeNull();
    },
  );

  it('treats the method case-insensitively on both sides', () => {
    expect(parse('post /v1/notes').method).toBe('POST');
    expect(match('post /v1/notes', 'post', `${ACME}/v1/notes`)).toEqual({});
    expect(match('Post /v1/notes', 'POST', `${ACME}/v1/notes`)).toEqual({});
  });

  it('tolerates surrounding and repeated whitespace', () => {
    expect(parse('  GET \t /v1  ').segments).toEqual([{ kind: 'literal', value: 'v1' }]);
  });

  it('rejects an unknown method, listing the allowed ones', () => {
    expect(() => parse('FETCH /v1/notes')).toThrow(
      'Invalid fixture request "FETCH /v1/notes": unknown method "FETCH"; expected one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.',
    );
  });

  it('rejects an empty string and a method without a target', () => {
    expect(() => parse('   ')).toThrow('Invalid fixture request "   ": it is empty');
    expect(() => parse('GET')).toThrow(
      'Invalid fixture request "GET": the target is empty; write e.g. "GET /v1/notes".',
    );
  });

  it('rejects whitespace inside the target', () => {
    expect(() => parse('GET /v1/my notes')).toThrow('the target must not contain whitespace');
  });

  it('rejects a bare target unless allowBareTarget is set', () => {
    expect(() => parse('/v1/notes')).toThrow(
      'Invalid fixture request "/v1/notes": it has no method; write e.g. "GET /v1/notes".',
    );
    const fixture = parse('/v1/notes', true);
    expect(fixture.method).toBeNull();
    for (const method of ['GET', 'DELETE', 'PROPFIND']) {
      expect(matchFixtureRequest(fixture, { method, url: `${ACME}/v1/notes` })).toEqual({ params: {} });
    }
  });

  it('accepts an absolute URL without consulting egress', () => {
    const fixture = parseFixtureRequest('GET https://other.example:8443/x', { egress: [] });
    expect(fixture.origin).toBe('https://other.example:8443');
    expect(fixture.segments).toEqual([{ kind: 'literal', value: 'x' }]);
  });

  it('normalises the origin of an absolute URL (host case, default port)', () => {
    expect(parse('GET HTTPS://API.Acme.COM:443/x').origin).toBe(ACME);
  });

  it('rejects malformed absolute targets', () => {
    expect(() => parse('GET api.acme.com/v1')).toThrow(
      'Invalid fixture request "GET api.acme.com/v1": "api.acme.com/v1" is not a valid URL; use an absolute http(s) URL or a path starting with "/".',
    );
    expect(() => parse('GET ftp://api.acme.com/x')).toThrow(
      'only http: and https: URLs can be fetched, not ftp:.',
    );
    expect(() => parse('GET https://*.acme.com/x')).toThrow('the host cannot be a wildcard');
    expect(() => parse('GET https://api.acme.com/x#top')).toThrow('remove the "#fragment"');
  });

  describe('path-only targets', () => {
    it('resolve against the single egress origin', () => {
      const fixture = parseFixtureRequest('GET /v1/notes', {
        egress: ['https://api.acme.com:8443/ignored/path'],
      });
      expect(fixture.origin).toBe('https://api.acme.com:8443');
    });

    it('fail with no egress origin', () => {
      expect(() => parseFixtureRequest('GET /v1/notes', { egress: [] })).toThrow(
        'Invalid fixture request "GET /v1/notes": a path-only target needs exactly one egress origin to resolve against, but egress is []; use an absolute URL instead, e.g. "GET https://<host>/v1/notes".',
      );
    });

    it('fail with two egress origins', () => {
      expect(() =>
        parseFixtureRequest('DELETE /v1/notes', { egress: ['https://a.acme.com', 'https://b.acme.com'] }),
      ).toThrow(
        'Invalid fixture request "DELETE /v1/notes": a path-only target needs exactly one egress origin to resolve against, but egress is ["https://a.acme.com","https://b.acme.com"]; use an absolute URL instead, e.g. "DELETE https://<host>/v1/notes".',
      );
    });

    it('fail with a single wildcard egress origin', () => {
      expect(() => parseFixtureRequest('GET /v1/notes', { egress: ['https://*.acme.com'] })).toThrow(
        'Invalid fixture request "GET /v1/notes": a path-only target cannot resolve against the wildcard egress origin in ["https://*.acme.com"]; use an absolute URL instead, e.g. "GET https://<host>/v1/notes".',
      );
    });

    it('fail with an unparseable egress origin', () => {
      expect(() => parseFixtureRequest('GET /v1', { egress: ['acme'] })).toThrow(
        'the egress origin "acme" is not a valid URL',
      );
    });

    it('keep a protocol-relative-looking path on the egress origin', () => {
      const fixture = parse('GET //evil.example/x');
      expect(fixture.origin).toBe(ACME);
      expect(fixture.segments).toEqual([
        { kind: 'literal', value: '' },
        { kind: 'literal', value: 'evil.example' },
        { kind: 'literal', value: 'x' },
      ]);
    });
  });

  it('rejects "*" anywhere but the last segment', () => {
    expect(() => parse('GET /v1/*/notes')).toThrow(
      'Invalid fixture request "GET /v1/*/notes": "*" is only allowed as the last path segment; use a ":param" for one segment.',
    );
  });

  it('rejects invalid and duplicate param names', () => {
    expect(() => parse('GET /v1/:note-id')).toThrow('":note-id" is not a valid ":param"');
    expect(() => parse('GET /v1/:')).toThrow('":" is not a valid ":param"');
    expect(() => parse('GET /v1/:id/x/:id')).toThrow('the param ":id" appears twice.');
  });

  it('rejects a duplicate fixture query param', () => {
    expect(() => parse('GET /v1?tag=a&tag=b')).toThrow('the query param "tag" appears twice.');
  });

  it('records the query only when the fixture has a "?"', () => {
    expect(parse('GET /v1').query).toBeNull();
    expect(parse('GET /v1?').query).toEqual(new Map());
    expect(parse('GET /v1?limit=10&q=a+b').query).toEqual(
      new Map([
        ['limit', '10'],
        ['q', 'a b'],
      ]),
    );
  });
});

describe('matchFixtureRequest', () => {
  it('requires the same origin: scheme, host and port', () => {
    const spec = 'GET https://api.acme.com/v1';
    expect(match(spec, 'GET', 'https://API.ACME.com/v1')).toEqual({});
    expect(match(spec, 'GET', 'https://api.acme.com:443/v1')).toEqual({});
    expect(match(spec, 'GET', 'http://api.acme.com/v1')).toBeNull();
    expect(match(spec, 'GET', 'https://www.acme.com/v1')).toBeNull();
    expect(match(spec, 'GET', 'https://api.acme.com:8443/v1')).toBeNull();
  });

  it('matches nothing for an unparseable request URL', () => {
    expect(match('GET /v1', 'GET', '/v1')).toBeNull();
  });

  it('requires the same number of segments', () => {
    expect(match('GET /v1/notes', 'GET', `${ACME}/v1`)).toBeNull();
    expect(match('GET /v1/notes', 'GET', `${ACME}/v1/notes/42`)).toBeNull();
    expect(match('GET /v1/notes', 'GET', `${ACME}/v1/other`)).toBeNull();
    expect(match('GET /', 'GET', ACME)).toEqual({});
    expect(match('GET /', 'GET', `${ACME}/v1`)).toBeNull();
  });

  it('captures :param values, one segment each', () => {
    const spec = 'GET /v1/notes/:id/comments/:commentId';
    expect(match(spec, 'GET', `${ACME}/v1/notes/42/comments/7`)).toEqual({ id: '42', commentId: '7' });
    expect(match(spec, 'GET', `${ACME}/v1/notes/42/7/comments/7`)).toBeNull();
    expect(match(spec, 'GET', `${ACME}/v1/notes//comments/7`)).toBeNull();
  });

  it('captures a param named __proto__ as an own property', () => {
    const params = match('GET /x/:__proto__', 'GET', `${ACME}/x/1`);
    expect(Object.keys(params ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
  });

  it('lets a trailing "*" match the rest of the path, including nothing', () => {
    const spec = 'GET /v1/files/*';
    expect(match(spec, 'GET', `${ACME}/v1/files/a/b/c.txt`)).toEqual({});
    expect(match(spec, 'GET', `${ACME}/v1/files/a`)).toEqual({});
    expect(match(spec, 'GET', `${ACME}/v1/files/`)).toEqual({});
    expect(match(spec, 'GET', `${ACME}/v1/files`)).toEqual({});
    expect(match(spec, 'GET', `${ACME}/v1`)).toBeNull();
    expect(match('GET /:kind/*', 'GET', `${ACME}/files/a/b`)).toEqual({ kind: 'files' });
  });

  it('treats an encoded %2A or %3A as a literal segment, not a marker', () => {
    expect(match('GET /v1/%2A', 'GET', `${ACME}/v1/*`)).toEqual({});
    expect(match('GET /v1/%2A', 'GET', `${ACME}/v1/x`)).toBeNull();
    expect(match('GET /v1/%3Aid', 'GET', `${ACME}/v1/:id`)).toEqual({});
    expect(match('GET /v1/%3Aid', 'GET', `${ACME}/v1/42`)).toBeNull();
  });

  it('ignores the request query when the fixture has no "?"', () => {
    expect(match('GET /v1/notes', 'GET', `${ACME}/v1/notes?limit=10&cursor=abc`)).toEqual({});
  });

  it('requires listed query params as a subset, with equal values', () => {
    const spec = 'GET /v1/notes?limit=10';
    expect(match(spec, 'GET', `${ACME}/v1/notes?limit=10`)).toEqual({});
    expect(match(spec, 'GET', `${ACME}/v1/notes?cursor=abc&limit=10`)).toEqual({});
    expect(match(spec, 'GET', `${ACME}/v1/notes?limit=20`)).toBeNull();
    expect(match(spec, 'GET', `${ACME}/v1/notes?cursor=abc`)).toBeNull();
    expect(match(spec, 'GET', `${ACME}/v1/notes`)).toBeNull();
  });

  it('accepts any occurrence of a repeated request query param', () => {
    expect(match('GET /v1?tag=b', 'GET', `${ACME}/v1?tag=a&tag=b`)).toEqual({});
    expect(match('GET /v1?tag=c', 'GET', `${ACME}/v1?tag=a&tag=b`)).toBeNull();
  });

  it('treats an empty fixture query value as "present and empty"', () => {
    expect(match('GET /v1?draft=', 'GET', `${ACME}/v1?draft=`)).toEqual({});
    expect(match('GET /v1?draft', 'GET', `${ACME}/v1?draft`)).toEqual({});
    expect(match('GET /v1?draft=', 'GET', `${ACME}/v1?draft=1`)).toBeNull();
    expect(match('GET /v1?draft=', 'GET', `${ACME}/v1`)).toBeNull();
  });

  it('compares percent-encoding decoded, on both sides', () => {
    expect(match('GET /v1/%41bc', 'GET', `${ACME}/v1/Abc`)).toEqual({});
    expect(match('GET /v1/Abc', 'GET', `${ACME}/v1/%41bc`)).toEqual({});
    expect(match('GET /v1/café', 'GET', `${ACME}/v1/caf%C3%A9`)).toEqual({});
    expect(match('GET /v1/notes/:id', 'GET', `${ACME}/v1/notes/a%20b`)).toEqual({ id: 'a b' });
    expect(match('GET /v1/notes/:id', 'GET', `${ACME}/v1/notes/a%2Fb`)).toEqual({ id: 'a/b' });
    expect(match('GET /v1/a/b', 'GET', `${ACME}/v1/a%2Fb`)).toBeNull();
    expect(match('GET /v1?q=a%20b', 'GET', `${ACME}/v1?q=a+b`)).toEqual({});
    expect(match('GET /v1/%ZZ', 'GET', `${ACME}/v1/%ZZ`)).toEqual({});
  });

  it('treats a trailing slash as absent on either side', () => {
    expect(match('GET /a/b', 'GET', `${ACME}/a/b/`)).toEqual({});
    expect(match('GET /a/b/', 'GET', `${ACME}/a/b`)).toEqual({});
    expect(match('GET /a/:id/', 'GET', `${ACME}/a/7/`)).toEqual({ id: '7' });
    expect(match('GET /a/b/', 'GET', `${ACME}/a/b//`)).toBeNull();
  });
});

describe('findFixture', () => {
  const handlers = [
    { name: 'one note', match: 'GET /v1/notes/:id' },
    { name: 'any note path', match: 'GET /v1/notes/*' },
    { name: 'create', match: 'POST /v1/notes' },
  ].map((h) => ({ ...h, fixture: parse(h.match) }));

  it('returns the first matching entry and its params', () => {
    const found = findFixture(handlers, (h) => h.fixture, { method: 'GET', url: `${ACME}/v1/notes/42` });
    expect(found?.entry.name).toBe('one note');
    expect(found?.params).toEqual({ id: '42' });
  });

  it('falls through to later entries', () => {
    const deep = findFixture(handlers, (h) => h.fixture, { method: 'GET', url: `${ACME}/v1/notes/42/tags` });
    expect(deep?.entry.name).toBe('any note path');
    expect(deep?.params).toEqual({});
    const post = findFixture(handlers, (h) => h.fixture, { method: 'POST', url: `${ACME}/v1/notes` });
    expect(post?.entry.name).toBe('create');
  });

  it('returns null when nothing matches', () => {
    expect(findFixture(handlers, (h) => h.fixture, { method: 'PUT', url: `${ACME}/v1/notes/42` })).toBeNull();
    expect(findFixture([], (h: FixtureRequest) => h, { method: 'GET', url: ACME })).toBeNull();
  });
});
