import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, type HostServices } from '../src/HostServices.js';
import { answerWebhookReply } from '../src/routes/_webhookReply.js';
import type { Runtime } from '../src/runtime/Runtime.js';
import { captureLog } from './_logCapture.js';

// What a webhook's reply sends back crossed from partner code: the host checks it again, whatever
// the guest engine in the isolate claims to have checked. These answers stand for a guest that
// bypassed its own sdk (a hostile bundle can patch anything inside its isolate).

function answerWith(answered: unknown | (() => Promise<unknown>)) {
  const log = captureLog();
  const runtime = {
    replyToWebhook: typeof answered === 'function' ? answered : async () => answered,
  } as unknown as Runtime;
  const services = { runtime, limits: DEFAULT_LIMITS, logger: log.logger } as unknown as HostServices;
  const app = new Hono();
  app.post('/', async (c) => {
    const response = await answerWebhookReply(services, c, {
      version: { id: 'v1', loadBundle: async () => '' },
      webhookId: 'challenge',
      rawBody: '{}',
      request: { method: 'POST', headers: {}, contentType: 'application/json' },
      log: { integration: 'acme', webhookId: 'challenge' },
    });
    return response ?? c.text('queued', 202);
  });
  return { request: () => app.request('/', { method: 'POST' }), log };
}

describe('answerWebhookReply re-checks what the runtime answers', () => {
  it('answers a well-formed reply, with only its content type', async () => {
    const { request } = answerWith({
      ok: true,
      reply: { status: 200, body: '{"challenge":"c"}', contentType: 'application/json', extra: 'dropped' },
    });
    const response = await request();
    expect(response.status).toBe(200);
    expect([...response.headers.keys()]).toEqual(['content-type']);
    expect(await response.text()).toBe('{"challenge":"c"}');
  });

  it('queues when the runtime answers no reply', async () => {
    expect((await answerWith({ ok: true, reply: undefined }).request()).status).toBe(202);
  });

  it.each<[string, unknown, string]>([
    ['a redirect status', { ok: true, reply: { status: 302, body: '' } }, 'status 302 is not allowed'],
    ['a 5xx status', { ok: true, reply: { status: 503 } }, 'status 503 is not allowed'],
    [
      'a header smuggled in the content type',
      { ok: true, reply: { status: 200, body: 'x', contentType: 'text/html\r\nSet-Cookie: a=b' } },
      'content-type must be a printable string',
    ],
    [
      'an oversized body',
      { ok: true, reply: { status: 200, body: 'x'.repeat(64 * 1024 + 1), contentType: 'text/plain' } },
      'a reply body has at most 65536',
    ],
    ['a reply that is not an object', { ok: true, reply: 'challenge' }, 'a reply is an object'],
    ['a result that is not one', 'ok', 'not a reply result'],
    ['a failure', { ok: false, error: { code: 'handler_error', message: 'boom' } }, 'boom'],
  ])('refuses %s with 500 handler_error and logs why', async (_name, answered, reason) => {
    const { request, log } = answerWith(answered);
    const response = await request();
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('handler_error');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(log.text()).toContain('webhook reply failed; nothing was queued');
    expect(log.text()).toContain(reason);
  });

  it('answers 500 when the runtime throws (budget, crash)', async () => {
    const { request } = answerWith(async () => {
      throw new Error('the call exceeded its time');
    });
    const response = await request();
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      `The webhook's reply did not finish within its ${DEFAULT_LIMITS.webhookReplyTimeoutMs} ms budget. Nothing was queued; the vendor may retry.`,
    );
  });
});
