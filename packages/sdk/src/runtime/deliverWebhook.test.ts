import { defineIntegration, MachineActorStorageError } from '@platform/sdk/integration';
import { deliverWebhook, parseWebhookPayload } from '@platform/sdk/runtime';
import { createMockContext } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

const seen: unknown[] = [];
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
  ],
});

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

describe('deliverWebhook', () => {
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
