import { defineIntegration, EgressDeniedError, MachineActorStorageError } from '@platform/sdk/integration';
import { invokeAction } from '@platform/sdk/runtime';
import { createMockContext, invokeActivate, NoRecordedResponseError } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const definition = defineIntegration({
  slug: 'acme-notes',
  egress: ['https://api.acme.com'],
  storage: {
    account: { 'cache/notes': z.array(z.string()), activation: z.object({ workspace: z.string() }) },
    user: { preferences: z.object({ sort: z.enum(['asc', 'desc']) }) },
  },
  actions: {
    'sync-notes': {
      description: 'Fetch notes and cache them',
      input: z.object({}),
      output: z.object({ count: z.number() }),
      handler: async (ctx) => {
        const response = await ctx.fetch('https://api.acme.com/v1/notes?limit=10');
        const notes = (await response.json()) as string[];
        const cached = (await ctx.storage.account.get('cache/notes')) ?? [];
        await ctx.storage.account.set('cache/notes', [...cached, ...notes]);
        return { count: cached.length + notes.length };
      },
    },
  },
  onActivate: async (ctx) => {
    const token = await ctx.secrets.get('ACME_TOKEN');
    await ctx.storage.account.set('activation', { workspace: token ?? 'none' });
  },
});

describe('createMockContext', () => {
  it('answers ctx.fetch from fetchHandlers (path-only target resolved against the single egress origin)', async () => {
    const ctx = createMockContext(definition, {
      fetchHandlers: [{ match: 'GET /v1/notes', respond: () => Response.json(['a', 'b']) }],
    });
    const first = await invokeAction(definition, 'sync-notes', '{}', ctx, { mode: 'harness' });
    expect(first).toEqual({ ok: true, data: { count: 2 } });
    const second = await invokeAction(definition, 'sync-notes', '{}', ctx, { mode: 'harness' });
    expect(second).toEqual({ ok: true, data: { count: 4 } });
    expect(ctx.mock.storage.account.get('cache/notes')).toEqual(['a', 'b', 'a', 'b']);
    expect(ctx.mock.requests.map((request) => request.url)).toEqual([
      'https://api.acme.com/v1/notes?limit=10',
      'https://api.acme.com/v1/notes?limit=10',
    ]);
  });

  it('passes the request to respond, and the first matching handler wins', async () => {
    const ctx = createMockContext(definition, {
      fetchHandlers: [
        {
          match: 'POST https://api.acme.com/v1/notes/:id',
          respond: async (request) => Response.json(await request.json()),
        },
        { match: 'https://api.acme.com/v1/notes/:id', respond: () => new Response('second') },
      ],
    });
    const posted = await ctx.fetch('https://api.acme.com/v1/notes/7', { method: 'POST', body: '{"x":1}' });
    expect(await posted.json()).toEqual({ x: 1 });
    const got = await ctx.fetch('https://api.acme.com/v1/notes/7');
    expect(await got.text()).toBe('second');
  });

  it('refuses an unmatched request with NoRecordedResponseError, never the network', async () => {
    const ctx = createMockContext(definition, {
      fetchHandlers: [{ match: 'GET /v1/notes', respond: () => Response.json([]) }],
    });
    const refused = ctx.fetch('https://api.acme.com/v1/users?token=x');
    await expect(refused).rejects.toBeInstanceOf(NoRecordedResponseError);
    await expect(refused).rejects.toThrow('GET https://api.acme.com/v1/users?...');
  });

  it('checks egress before any handler', async () => {
    const ctx = createMockContext(definition, {
      fetchHandlers: [{ match: 'https://evil.example/steal', respond: () => new Response('x') }],
    });
    await expect(ctx.fetch('https://evil.example/steal')).rejects.toBeInstanceOf(EgressDeniedError);
    expect(ctx.mock.requests).toHaveLength(0);
  });

  it('refuses a path-only handler when egress has no single origin', () => {
    const noEgress = defineIntegration({ slug: 'no-egress' });
    expect(() =>
      createMockContext(noEgress, { fetchHandlers: [{ match: 'GET /v1', respond: () => new Response() }] }),
    ).toThrow(/absolute URL/);
  });

  it('seeds storage and secrets, and defaults to a user actor', async () => {
    const ctx = createMockContext(definition, {
      storage: { user: { preferences: { sort: 'asc' } } },
      secrets: { account: { ACME_TOKEN: 'tok' } },
    });
    expect(ctx.actor).toEqual({ kind: 'user', userId: 'test-user', accountId: 'test-account' });
    expect(await ctx.storage.user.get('preferences')).toEqual({ sort: 'asc' });
    expect(await ctx.secrets.get('ACME_TOKEN')).toBe('tok');
  });

  it('gives ctx.remainingMs() the deadline passed, Infinity without one', () => {
    expect(createMockContext(definition).remainingMs()).toBe(Number.POSITIVE_INFINITY);
    const left = createMockContext(definition, { deadline: Date.now() + 10_000 }).remainingMs();
    expect(left).toBeGreaterThan(5_000);
    expect(left).toBeLessThanOrEqual(10_000);
  });

  it('makes a machine actor whose user storage is refused', () => {
    const ctx = createMockContext(definition, { actor: { kind: 'machine', accountId: 'acc-9' } });
    expect(ctx.actor).toEqual({ kind: 'machine', accountId: 'acc-9' });
    expect(() => ctx.storage.user).toThrow(MachineActorStorageError);
  });
});

describe('invokeActivate', () => {
  it('runs onActivate against the mock context', async () => {
    const ctx = createMockContext(definition, { secrets: { global: { ACME_TOKEN: 'from-global' } } });
    await invokeActivate(definition, ctx);
    expect(await ctx.storage.account.get('activation')).toEqual({ workspace: 'from-global' });
  });

  it('rejects with the handler error so a test can assert it', async () => {
    const failing = defineIntegration({
      slug: 'failing',
      onActivate: async () => {
        throw new Error('activation broke');
      },
    });
    await expect(invokeActivate(failing, createMockContext(failing))).rejects.toThrow('activation broke');
  });

  it('resolves for a definition without onActivate', async () => {
    const bare = defineIntegration({ slug: 'bare' });
    await expect(invokeActivate(bare, createMockContext(bare))).resolves.toBeUndefined();
  });
});
