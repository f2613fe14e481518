import {
  isCredentialHeader,
  parseWebhookBody,
  toWebhookRequest,
  WEBHOOK_HEADER_LIMITS,
  webhookBodyKind,
  webhookFormBody,
  webhookHeaderView,
} from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';

describe('webhookHeaderView', () => {
  it('lower-cases names, joins repeated values and drops credentials (record, Headers and raw list alike)', () => {
    const record = {
      'X-GitHub-Event': 'push',
      Authorization: 'Bearer hunter2',
      'Proxy-Authorization': 'Basic x',
      Cookie: 'sid=1',
      'X-Api-Key': 'k',
      'X-Gitlab-Token': 't',
      'X-Amz-Security-Token': 's',
      'X-Forwarded-For': ['10.0.0.1', '10.0.0.2'],
      'Content-Type': 'application/json',
    };
    const expected = {
      'content-type': 'application/json',
      'x-forwarded-for': '10.0.0.1, 10.0.0.2',
      'x-github-event': 'push',
    };
    expect(webhookHeaderView(record)).toEqual(expected);
    const headers = new Headers();
    for (const [name, value] of Object.entries(record)) {
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    expect(webhookHeaderView(headers)).toEqual(expected);
    // Node's rawHeaders: names as sent, a repeated header once per line (HTTP/2 pseudo-headers left out).
    const raw = Object.entries(record).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).flatMap((item) => [name, item]),
    );
    expect(webhookHeaderView([':path', '/hook', ...raw])).toEqual(expected);
    expect(webhookHeaderView([...raw, 'X-Forwarded-For', '10.0.0.3'])).toEqual({
      ...expected,
      'x-forwarded-for': '10.0.0.1, 10.0.0.2, 10.0.0.3',
    });
  });

  it('gives the same view however often and in whatever case a name comes, past the bound of names it remembers', () => {
    const many = Array.from({ length: 2_500 }, (_, index) => [`X-Custom-${index}`, 'v']).flat();
    for (let round = 0; round < 3; round++) {
      webhookHeaderView(many);
      expect(
        webhookHeaderView(['X-Api-Key', 'k', 'x-API-key', 'k2', 'X-Event', 'a', 'x-event', 'b']),
      ).toEqual({
        'x-event': 'a, b',
      });
      expect(webhookHeaderView([':Authority', 'h', 'Cookie', 'c', 'COOKIE', 'd'])).toEqual({});
    }
  });

  it.each([
    ['authorization', true],
    ['set-cookie', true],
    ['x-auth-token', true],
    ['x-csrf-token', true],
    ['apikey', true],
    ['x-session-id', true],
    ['x-hub-signature-256', false],
    ['webhook-id', false],
    ['x-slack-request-timestamp', false],
    ['x-hubspot-signature-v3', false],
    ['www-authenticate', false],
  ])('isCredentialHeader(%j) is %j', (name, expected) => {
    expect(isCredentialHeader(name)).toBe(expected);
  });

  it(`keeps at most ${WEBHOOK_HEADER_LIMITS.count} headers and ${WEBHOOK_HEADER_LIMITS.bytes} bytes, in name order`, () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 100; i++) many[`x-h${String(i).padStart(3, '0')}`] = 'v';
    const view = webhookHeaderView(many);
    expect(Object.keys(view)).toHaveLength(64);
    expect(Object.keys(view).at(-1)).toBe('x-h063');

    const big = {
      'a-big': 'x'.repeat(8 * 1024),
      'b-small': 'kept',
      'c-half': 'y'.repeat(4100),
      'd-half': 'z'.repeat(4100),
    };
    const bounded = webhookHeaderView(big);
    expect(Object.keys(bounded)).toEqual(['b-small', 'c-half']);

    // The bound counts UTF-8 bytes: 'é' is 2, an emoji (a surrogate pair) 4, a lone surrogate 3.
    const wide = { 'a-wide': `${'é'.repeat(1000)}${'😀'.repeat(1000)}\ud800`, 'b-plain': 'y'.repeat(2180) };
    expect(6 + 2000 + 4000 + 3 + 7 + 2180).toBe(8196);
    expect(Object.keys(webhookHeaderView(wide))).toEqual(['a-wide']);
    expect(Object.keys(webhookHeaderView({ ...wide, 'b-plain': 'y'.repeat(2176) }))).toEqual([
      'a-wide',
      'b-plain',
    ]);
  });
});

describe('parseWebhookBody', () => {
  const FORM = 'application/x-www-form-urlencoded';

  it('parses a form body: single keys to strings, repeated keys to arrays, percent and plus decoded', () => {
    expect(
      parseWebhookBody(
        'command=%2Fnote&text=buy+milk%21&channel_id=C1&tag=a&tag=b&empty=',
        `${FORM}; charset=utf-8`,
      ),
    ).toEqual({
      ok: true,
      value: { command: '/note', text: 'buy milk!', channel_id: 'C1', tag: ['a', 'b'], empty: '' },
    });
    expect(parseWebhookBody('', FORM)).toEqual({ ok: true, value: {} });
  });

  it('round-trips webhookFormBody, and refuses values that are not strings', () => {
    const fields = { command: '/note', text: 'a b&c=d', tag: ['x', 'y'] };
    const body = webhookFormBody(fields)!;
    expect(body).toBe('command=%2Fnote&text=a+b%26c%3Dd&tag=x&tag=y');
    expect(parseWebhookBody(body, FORM)).toEqual({ ok: true, value: fields });
    expect(webhookFormBody({ n: 1 })).toBeUndefined();
    expect(webhookFormBody(['a'])).toBeUndefined();
    expect(webhookFormBody('a=1')).toBeUndefined();
  });

  it('keeps a __proto__ key an ordinary field', () => {
    const parsed = parseWebhookBody('__proto__=x&__proto__=y&a=1', FORM);
    expect(parsed.ok).toBe(true);
    const value = (parsed as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(value.a).toBe('1');
  });

  it('parses JSON when the type says JSON, says nothing, or is another type', () => {
    for (const type of ['application/json', undefined, 'text/plain', 'application/cloudevents+json']) {
      expect(parseWebhookBody('{"a":[1]}', type)).toEqual({ ok: true, value: { a: [1] } });
    }
    expect(parseWebhookBody('a=1', 'application/json')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The payload is not JSON: /),
    });
    expect(webhookBodyKind('Application/X-WWW-Form-Urlencoded ; charset=UTF-8')).toBe('form');
    expect(webhookBodyKind('multipart/form-data')).toBe('json');
  });
});

describe('toWebhookRequest', () => {
  it('is frozen, with a frozen header view that applies the rule again', () => {
    const request = toWebhookRequest(
      {
        method: 'post',
        headers: { Authorization: 'Bearer x', 'X-Event': 'a' },
        contentType: 'application/json',
      },
      '{}',
    );
    expect(request).toEqual({
      method: 'POST',
      headers: { 'x-event': 'a' },
      rawBody: '{}',
      contentType: 'application/json',
    });
    expect(Object.isFrozen(request)).toBe(true);
    expect(Object.isFrozen(request.headers)).toBe(true);
    expect(() => {
      (request.headers as Record<string, string>)['x-event'] = 'b';
    }).toThrow(TypeError);
    // No inherited names to trip over: `headers.constructor` is not a function.
    expect(request.headers.constructor).toBeUndefined();
  });

  it('gives a request without a stored init (a job queued by an older host) POST and no headers', () => {
    expect(toWebhookRequest(undefined, 'x')).toEqual({
      method: 'POST',
      headers: {},
      rawBody: 'x',
      contentType: undefined,
    });
  });
});
