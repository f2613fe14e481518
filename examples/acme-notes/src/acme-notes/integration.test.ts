import { createHmac } from 'node:crypto';
import { deliverWebhook, invokeAction, runSchedule, verifyWebhookSignature } from '@platform/sdk/runtime';
import { createMockContext, invokeActivate } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import definition from './integration.js';

const production = { mode: 'production' } as const;
const vendorNote = {
  id: '42',
  title: 'From Acme',
  body: 'synced',
  folder: 'inbox',
  created_at: '2030-01-01T00:00:00.000Z',
};

describe('acme-notes', () => {
  it('adds notes offline and lists them in the preferred order', async () => {
    const ctx = createMockContext(definition);
    const first = await invokeAction(definition, 'add-note', '{"title":"First"}', ctx, production);
    const second = await invokeAction(
      definition,
      'add-note',
      '{"title":"Second","folder":"work"}',
      ctx,
      production,
    );
    expect(first).toMatchObject({ ok: true, data: { title: 'First', folder: 'inbox', origin: 'local' } });
    expect(second).toMatchObject({ ok: true, data: { title: 'Second', folder: 'work' } });
    expect(ctx.mock.requests).toEqual([]);

    const listed = await invokeAction(definition, 'list-notes', '{}', ctx, production);
    expect(listed.ok && (listed.data as { title: string }[]).map((note) => note.title)).toEqual([
      'Second',
      'First',
    ]);
    await ctx.storage.user.set('preferences', { sort: 'oldest' });
    const oldest = await invokeAction(definition, 'list-notes', '{"folder":"inbox"}', ctx, production);
    expect(oldest.ok && (oldest.data as { title: string }[]).map((note) => note.title)).toEqual(['First']);
  });

  it('refuses an empty title with invalid_input', async () => {
    const envelope = await invokeAction(
      definition,
      'add-note',
      '{"title":"  "}',
      createMockContext(definition),
      production,
    );
    expect(envelope).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('writes default settings on activation and keeps chosen ones', async () => {
    const ctx = createMockContext(definition);
    await invokeActivate(definition, ctx);
    expect(ctx.mock.storage.account.get('settings')).toEqual({ defaultFolder: 'inbox', syncEnabled: true });
    await ctx.storage.account.set('settings', { defaultFolder: 'ideas', syncEnabled: false });
    await invokeActivate(definition, ctx);
    expect(ctx.mock.storage.account.get('settings')).toEqual({ defaultFolder: 'ideas', syncEnabled: false });
  });

  it('stores the OAuth tokens as account-tier secrets in onTokens', async () => {
    const ctx = createMockContext(definition);
    await definition.oauth?.onTokens(ctx, { accessToken: 'at-1', refreshToken: 'rt-1', scope: 'notes:read' });
    expect(Object.fromEntries(ctx.mock.secrets.account)).toEqual({
      ACME_NOTES_ACCESS_TOKEN: 'at-1',
      ACME_NOTES_REFRESH_TOKEN: 'rt-1',
    });
  });

  it('syncs with the stored token and keeps local notes', async () => {
    const seen: Request[] = [];
    const ctx = createMockContext(definition, {
      secrets: { account: { ACME_NOTES_ACCESS_TOKEN: 'at-1' } },
      fetchHandlers: [
        {
          match: 'GET https://api.acme-notes.example/v1/notes',
          respond: (request) => {
            seen.push(request);
            return Response.json({ notes: [vendorNote] });
          },
        },
      ],
    });
    await invokeAction(definition, 'add-note', '{"title":"Local"}', ctx, production);
    const envelope = await invokeAction(definition, 'sync-notes', '{}', ctx, production);
    expect(envelope).toMatchObject({ ok: true, data: { synced: 1 } });
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer at-1');
    expect(new URL(seen[0]!.url).searchParams.get('folder')).toBe('inbox');
    const titles = (ctx.mock.storage.account.get('cache/notes') as { title: string }[]).map(
      (note) => note.title,
    );
    expect(titles.sort()).toEqual(['From Acme', 'Local']);
    expect(ctx.mock.storage.account.get('sync_state')).toMatchObject({ remoteCount: 1 });
  });

  it('tells the caller to connect first when no token is stored', async () => {
    const envelope = await invokeAction(
      definition,
      'sync-notes',
      '{}',
      createMockContext(definition),
      production,
    );
    expect(envelope).toEqual({
      ok: false,
      error: {
        code: 'handler_error',
        message: 'Acme Notes is not connected for this account; connect it, then sync again.',
        status: 409,
      },
    });
  });

  it('skips the nightly sync for an account that is not connected', async () => {
    const ctx = createMockContext(definition, { actor: { kind: 'machine' } });
    expect(await runSchedule(definition, 'nightly-sync', ctx)).toEqual({ ok: true });
    expect(ctx.mock.requests).toEqual([]);
  });

  it('accepts a Stripe-style signed note-changed delivery and applies it', async () => {
    const webhook = definition.webhooks?.find((candidate) => candidate.id === 'note-changed');
    const rawBody = JSON.stringify({ type: 'note.created', note: vendorNote });
    const now = Date.now();
    const t = Math.floor(now / 1000);
    const digest = createHmac('sha256', 'whsec').update(`${t}.${rawBody}`).digest('hex');
    const headers = { 'acme-signature': `t=${t},v1=${digest}` };
    const check = (secret: string, at: number) =>
      verifyWebhookSignature({ signature: webhook!.signature!, headers, rawBody, secret, now: at });
    expect(await check('whsec', now)).toEqual({ valid: true });
    expect((await check('other', now)).valid).toBe(false);
    expect((await check('whsec', now + 301_000)).valid).toBe(false);

    const ctx = createMockContext(definition, { actor: { kind: 'machine' } });
    expect(await deliverWebhook(definition, 'note-changed', rawBody, ctx)).toEqual({ ok: true });
    expect(ctx.mock.storage.account.get('cache/notes')).toMatchObject([{ id: 'acme-42', origin: 'acme' }]);
    const deleted = JSON.stringify({ type: 'note.deleted', note: vendorNote });
    await deliverWebhook(definition, 'note-changed', deleted, ctx);
    expect(ctx.mock.storage.account.get('cache/notes')).toEqual([]);
  });
});
