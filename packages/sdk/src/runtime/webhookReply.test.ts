import { checkWebhookReply, WEBHOOK_REPLY_LIMITS } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';

describe('checkWebhookReply', () => {
  it('answers a string as text/plain, another JSON value as application/json, status 200 by default', () => {
    expect(checkWebhookReply({ body: 'challenge-123' })).toEqual({
      ok: true,
      reply: { status: 200, body: 'challenge-123', contentType: 'text/plain; charset=utf-8' },
    });
    expect(checkWebhookReply({ status: 201, body: { challenge: 'c' } })).toEqual({
      ok: true,
      reply: { status: 201, body: '{"challenge":"c"}', contentType: 'application/json' },
    });
    expect(checkWebhookReply({ status: 204 })).toEqual({ ok: true, reply: { status: 204, body: '' } });
    expect(checkWebhookReply({ status: 410, body: null })).toEqual({
      ok: true,
      reply: { status: 410, body: 'null', contentType: 'application/json' },
    });
    expect(checkWebhookReply({ body: '<ok/>', headers: { 'Content-Type': 'application/xml' } })).toEqual({
      ok: true,
      reply: { status: 200, body: '<ok/>', contentType: 'application/xml' },
    });
  });

  it.each<[string, unknown, string]>([
    ['a redirect status', { status: 302 }, 'status 302 is not allowed; reply with 200-299 or 400-499'],
    ['a server error status', { status: 500 }, 'status 500 is not allowed'],
    ['a 1xx status', { status: 101 }, 'status 101 is not allowed'],
    ['a fractional status', { status: 200.5 }, 'status 200.5 is not allowed'],
    ['a string status', { status: '200' }, 'status "200" is not allowed'],
    [
      'a header besides content-type',
      { headers: { Location: 'https://evil.test' } },
      'header "Location" is not allowed',
    ],
    ['a set-cookie header', { headers: { 'set-cookie': 'a=b' } }, 'header "set-cookie" is not allowed'],
    [
      'a content-type with a line break',
      { headers: { 'content-type': 'text/plain\r\nX: y' } },
      'content-type must be a printable string',
    ],
    ['an unknown field', { code: 200 }, 'unknown reply field(s) "code"'],
    ['an array', [200], 'not an array'],
    ['a string', 'challenge', 'not "challenge"'],
    ['a body on a 204', { status: 204, body: 'x' }, 'a 204 reply has no body'],
    ['a body that is not JSON', { body: { n: 1n } }, 'body must be a string or a JSON value'],
    [
      'a body too large',
      { body: 'x'.repeat(WEBHOOK_REPLY_LIMITS.bodyBytes + 1) },
      `a reply body has at most ${WEBHOOK_REPLY_LIMITS.bodyBytes}`,
    ],
  ])('refuses %s', (_name, value, message) => {
    const checked = checkWebhookReply(value);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.message).toContain(message);
      expect(checked.message).toMatch(/^The webhook's reply was refused: /);
    }
  });

  it('counts the body limit in UTF-8 bytes', () => {
    const exactly = '€'.repeat(Math.floor(WEBHOOK_REPLY_LIMITS.bodyBytes / 3));
    expect(checkWebhookReply({ body: exactly }).ok).toBe(true);
    expect(checkWebhookReply({ body: `${exactly}€€` }).ok).toBe(false);
  });
});
