import { defineIntegration, MachineActorStorageError, type WebhookRequest } from '@platform/sdk/integration';
import { deliverWebhook, parseWebhookPayload, replyToWebhook } from '@platform/sdk/runtime';
import { createMockContext } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

const seen: unknown[] = [];
const requests: WebhookRequest[] = [];
const definition = defineIntegration({
  slug: 'acme-notes',
  storage: { account: { 'sync_state/cursor': z.string() }, user: { preferences: z.object({}) } },
  webhooks: [
    {
      id: 'note-created',
      description: 'acme note.created',
      payloadSchema: z.object({ noteId: z.string(), at: z.coerce.date() }),
      handler: async (ctx, payload) => {
        seen.push(payload);
        await ctx.storage.account.set('sync_state/cursor', payload.noteId);
      },
    },
    {
      id: 'note-deleted',
      payloadSchema: z3.object({ noteId: z3.string() }),
      handler: async (ctx) => {
        await ctx.storage.user.get('preferences');
      },
    },
    {
      id: 'slack-command',
      payloadSchema: z.union([
        z.object({ type: z.literal('url_verification'), challenge: z.string() }),
        z.object({ command: z.string(), text: z.string(), tag: z.array(z.string()).optional() }),
      ]),
      reply: (payload, request) => {
        if ('challenge' in payload) return { body: { challenge: payload.challenge } };
        if (payload.text === 'redirect') return { status: 302 };
        if (payload.text === 'throw') throw new Error('reply broke at https://x.test/?token=abc');
        if (payload.text === 'echo-header') return { body: request.headers['x-slack-retry-num'] ?? 'none' };
        return undefined;
      },
      handler: async (_ctx, payload, request) => {
        seen.push(payload);
        requests.push(request);
      },
    },
  ],
});
const FORM = 'application/x-www-form-urlencoded';

describe('parseWebhookPayload', () => {
  it('validates the raw body with the payload schema (zod 4 and zod 3)', async () => {
    expect(await parseWebhookPayload(definition, 'note-deleted', '{"noteId":"n1"}')).toEqual({
      ok: true,
      payload: { noteId: 'n1' },
    });
    const bad = await parseWebhookPayload(definition, 'note-deleted', '{"noteId":7}');
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload', issues: [{ path: ['noteId'] }] },
    });
  });

  it('refuses a body that is not JSON and an unknown webhook', async () => {
    expect(await parseWebhookPayload(definition, 'note-created', 'not json')).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' },
    });
    expect(await parseWebhookPayload(definition, 'note.created', '{}')).toMatchObject({
      ok: false,
      error: { code: 'webhook_not_found' },
    });
  });
});

describe('parseWebhookPayload by Content-Type', () => {
  it('form-decodes a form body before the schema, and parses JSON otherwise', async () => {
    expect(
      await parseWebhookPayload(definition, 'slack-command', 'command=%2Fnote&text=hi&tag=a&tag=b', FORM),
    ).toEqual({
      ok: true,
      payload: { command: '/note', text: 'hi', tag: ['a', 'b'] },
    });
    expect(await parseWebhookPayload(definition, 'slack-command', '{"command":"/n","text":"t"}')).toEqual({
      ok: true,
      payload: { command: '/n', text: 't' },
    });
    // A form body sent as JSON is not JSON.
    expect(
      await parseWebhookPayload(definition, 'slack-command', 'command=x&text=y', 'application/json'),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' },
    });
  });
});

describe('replyToWebhook', () => {
  const request = {
    method: 'POST',
    headers: { 'x-slack-retry-num': '1', authorization: 'Bearer no' },
    contentType: FORM,
  };

  it('answers the checked reply, or undefined to queue', async () => {
    expect(
      await replyToWebhook(definition, 'slack-command', '{"type":"url_verification","challenge":"c1"}', {
        ...request,
        contentType: 'application/json',
      }),
    ).toEqual({
      ok: true,
      reply: { status: 200, body: '{"challenge":"c1"}', contentType: 'application/json' },
    });
    expect(await replyToWebhook(definition, 'slack-command', 'command=%2Fa&text=later', request)).toEqual({
      ok: true,
      reply: undefined,
    });
    expect(
      await replyToWebhook(definition, 'slack-command', 'command=%2Fa&text=echo-header', request),
    ).toMatchObject({
      ok: true,
      reply: { body: '1' },
    });
    // A webhook without reply always queues.
    expect(await replyToWebhook(definition, 'note-deleted', '{"noteId":"n"}')).toEqual({
      ok: true,
      reply: undefined,
    });
  });

  it('reports a refused reply, a throwing reply (redacted) and an invalid payload without throwing', async () => {
    expect(await replyToWebhook(definition, 'slack-command', 'command=%2Fa&text=redirect', request)).toEqual({
      ok: false,
      error: {
        code: 'handler_error',
        message: "The webhook's reply was refused: status 302 is not allowed; reply with 200-299 or 400-499.",
      },
    });
    const thrown = await replyToWebhook(definition, 'slack-command', 'command=%2Fa&text=throw', request);
    expect(thrown).toMatchObject({ ok: false, error: { code: 'handler_error' } });
    if (!thrown.ok) {
      expect(thrown.error.message).toBe('reply failed: Error: reply broke at https://x.test/?...');
    }
    expect(await replyToWebhook(definition, 'slack-command', 'nope=1', request)).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' },
    });
  });
});

describe('deliverWebhook', () => {
  it('gives the handler the form-parsed payload and the frozen request view', async () => {
    const ctx = createMockContext(definition, { actor: { kind: 'machine' } });
    const rawBody = 'command=%2Fnote&text=hello&tag=x&tag=y';
    const result = await deliverWebhook(definition, 'slack-command', rawBody, ctx, {
      method: 'POST',
      headers: { 'X-Slack-Retry-Num': '2', Cookie: 'sid=1' },
      contentType: FORM,
    });
    expect(result).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ command: '/note', text: 'hello', tag: ['x', 'y'] });
    expect(requests.at(-1)).toEqual({
      method: 'POST',
      headers: { 'x-slack-retry-num': '2' },
      rawBody,
      contentType: FORM,
    });
    expect(Object.isFrozen(requests.at(-1))).toBe(true);
  });

  it('runs the handler with the schema output as a machine actor', async () => {
    const ctx = createMockContext(definition, { actor: { kind: 'machine' } });
    const result = await deliverWebhook(
      definition,
      'note-created',
      '{"noteId":"n9","at":"2026-01-01T00:00:00Z"}',
      ctx,
    );
    expect(result).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ noteId: 'n9', at: new Date('2026-01-01T00:00:00Z') });
    expect(ctx.mock.storage.account.get('sync_state/cursor')).toBe('n9');
  });

  it('reports a handler failure (machine actor touching user storage) without throwing', async () => {
    const ctx = createMockContext(definition, { actor: { kind: 'machine' } });
    const result = await deliverWebhook(definition, 'note-deleted', '{"noteId":"n1"}', ctx);
    expect(result).toMatchObject({ ok: false, error: { code: 'handler_error' } });
    if (!result.ok) expect(result.error.message).toContain(new MachineActorStorageError().message);
    expect(
      ctx.mock.logs.some((entry) => entry.level === 'error' && entry.message.includes('note-deleted')),
    ).toBe(true);
  });

  it('does not run the handler for an invalid payload', async () => {
    const before = seen.length;
    const ctx = createMockContext(definition, { actor: { kind: 'machine' } });
    const result = await deliverWebhook(definition, 'note-created', '{"noteId":1}', ctx);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(seen.length).toBe(before);
  });
});
