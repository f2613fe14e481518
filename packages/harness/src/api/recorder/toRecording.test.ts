import type { CapabilityFetchRequest, CapabilityFetchResponse } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import { isSecretLikeName, REDACTED, toRecording } from './toRecording.js';

const request = (url: string, headers: [string, string][] = []): CapabilityFetchRequest => ({
  url,
  method: 'get',
  headers,
  body: null,
});
const response = (
  body: string | Uint8Array,
  headers: [string, string][] = [['content-type', 'application/json']],
  status = 200,
): CapabilityFetchResponse => ({
  status,
  statusText: '',
  headers,
  body: Buffer.from(body).toString('base64'),
});

describe('toRecording', () => {
  it('keeps JSON as JSON, drops noise and implied headers, and leaves out default statuses', () => {
    const recording = toRecording(
      request('https://api.acme.test/v1/notes?page=2'),
      response('[{"id":"n1"}]', [
        ['content-type', 'application/json; charset=utf-8'],
        ['date', 'Tue, 01 Jan 2030 00:00:00 GMT'],
        ['content-length', '13'],
        ['x-ratelimit-remaining', '99'],
      ]),
      [],
    );
    expect(recording).toEqual({
      method: 'GET',
      target: 'https://api.acme.test/v1/notes',
      query: [['page', '2']],
      response: { response: [{ id: 'n1' }], headers: { 'x-ratelimit-remaining': '99' } },
    });
  });

  it('drops Authorization, Cookie, Set-Cookie and token-like headers; replaces known secrets and token fields', () => {
    const recording = toRecording(
      request('https://api.acme.test/v1/me?access_token=qtoken-1&api_key=k-1&sig=s&limit=5', [
        ['authorization', 'Bearer bearer-token-1'],
      ]),
      response(
        JSON.stringify({
          user: 'ann',
          echo: 'your token is bearer-token-1',
          note: 'client secret-value-1 leaked',
          access_token: 'at',
          nested: [{ refreshToken: 'rt', id_token: 'it', client_secret: 'cs', password: 'pw', apiKey: 'ak' }],
          secret: null,
        }),
        [
          ['content-type', 'application/json'],
          ['set-cookie', 'session=abc'],
          ['x-csrf-token', 'csrf'],
          ['x-api-key', 'k'],
          ['www-authenticate', 'Bearer'],
          ['x-echo', 'secret-value-1'],
        ],
      ),
      ['secret-value-1', 'abc'],
    );
    expect(recording).toEqual({
      method: 'GET',
      target: 'https://api.acme.test/v1/me',
      query: [['limit', '5']],
      response: {
        response: {
          user: 'ann',
          echo: `your token is ${REDACTED}`,
          note: `client ${REDACTED} leaked`,
          access_token: REDACTED,
          nested: [
            {
              refreshToken: REDACTED,
              id_token: REDACTED,
              client_secret: REDACTED,
              password: REDACTED,
              apiKey: REDACTED,
            },
          ],
          secret: null,
        },
        headers: { 'www-authenticate': 'Bearer', 'x-echo': REDACTED },
      },
    });
    expect(JSON.stringify(recording)).not.toMatch(/bearer-token-1|qtoken-1|k-1|secret-value-1|csrf|session=/);
  });

  it('records text as text with its content type when it is not text/plain, and a status that differs', () => {
    expect(
      toRecording(
        request('https://a.test/x'),
        response('<p>hi</p>', [['content-type', 'text/html']], 503),
        [],
      ),
    ).toMatchObject({
      response: { response: '<p>hi</p>', status: 503, headers: { 'content-type': 'text/html' } },
    });
    expect(
      toRecording(
        request('https://a.test/x'),
        response('not json', [['content-type', 'application/json']]),
        [],
      ),
    ).toMatchObject({ response: { response: 'not json', headers: { 'content-type': 'application/json' } } });
  });

  it('records an empty body without response, and a redirect without its secret-like query', () => {
    expect(toRecording(request('https://a.test/x'), response('', [], 204), [])).toMatchObject({
      response: {},
    });
    expect(toRecording(request('https://a.test/x'), response('', [], 200), [])).toMatchObject({
      response: { status: 200 },
    });
    expect(
      toRecording(
        request('https://a.test/login'),
        response('', [['location', 'https://app.test/cb?code=c0de&state=st&view=list']], 302),
        [],
      ),
    ).toMatchObject({ response: { status: 302, headers: { location: 'https://app.test/cb?view=list' } } });
  });

  it('escapes path segments that the fixture grammar would read as :param or *', () => {
    expect(toRecording(request('https://a.test/v1/:x/*'), response('{}'), [])).toMatchObject({
      target: 'https://a.test/v1/%3Ax/%2A',
    });
  });

  it('skips a body that is not text', () => {
    expect(
      toRecording(request('https://a.test/logo.png'), response(new Uint8Array([0xff, 0xd8, 0xff])), []),
    ).toEqual({
      skipped: 'its 3-byte body is not text, and a fixture answers with text or JSON',
    });
  });

  it('names credential-like names', () => {
    expect(
      ['access_token', 'X-Api-Key', 'clientSecret', 'code', 'state', 'sig', 'Cookie'].every(isSecretLikeName),
    ).toBe(true);
    expect(['page', 'limit', 'author', 'title', 'content-type', 'postcode'].some(isSecretLikeName)).toBe(
      false,
    );
  });
});
