import { defineIntegration } from '@platform/sdk/integration';
import { runActivate, runSchedule } from '@platform/sdk/runtime';
import { createMockContext } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const definition = defineIntegration({
  slug: 'acme-notes',
  storage: { account: { metrics_summary: z.object({ runs: z.number() }) } },
  schedules: [
    {
      id: 'nightly-sync',
      cron: '0 3 * * *',
      handler: async (ctx) => {
        const summary = await ctx.storage.account.get('metrics_summary');
        await ctx.storage.account.set('metrics_summary', { runs: (summary?.runs ?? 0) + 1 });
      },
    },
    {
      id: 'broken',
      cron: '*/5 * * * *',
      handler: async () => {
        throw new Error('vendor down: https://api.acme.com/v1/sync?key=secret');
      },
    },
  ],
  onActivate: async (ctx) => {
    await ctx.storage.account.set('metrics_summary', { runs: 0 });
  },
});

describe('runSchedule', () => {
  it('runs the handler, and state accumulates across runs on one context', async () => {
    const ctx = createMockContext(definition, { actor: { kind: 'machine' } });
    expect(await runSchedule(definition, 'nightly-sync', ctx)).toEqual({ ok: true });
    expect(await runSchedule(definition, 'nightly-sync', ctx)).toEqual({ ok: true });
    expect(await ctx.storage.account.get('metrics_summary')).toEqual({ runs: 2 });
  });

  it('reports an unknown schedule and a failing handler with a redacted message', async () => {
    const ctx = createMockContext(definition, { actor: { kind: 'machine' } });
    expect(await runSchedule(definition, 'hourly', ctx)).toMatchObject({
      ok: false,
      error: { code: 'schedule_not_found' },
    });
    const failed = await runSchedule(definition, 'broken', ctx);
    expect(failed).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Error: vendor down: https://api.acme.com/v1/sync?...' },
    });
  });
});

describe('runActivate', () => {
  it('runs onActivate and says so', async () => {
    const ctx = createMockContext(definition);
    expect(await runActivate(definition, ctx)).toEqual({ ok: true, ran: true });
    expect(await ctx.storage.account.get('metrics_summary')).toEqual({ runs: 0 });
  });

  it('is a no-op without onActivate', async () => {
    const bare = defineIntegration({ slug: 'bare' });
    expect(await runActivate(bare, createMockContext(bare))).toEqual({ ok: true, ran: false });
  });

  it('treats a failure as non-fatal: returned and logged as a warning, never thrown', async () => {
    const failing = defineIntegration({
      slug: 'failing',
      onActivate: async () => {
        throw new Error('nope');
      },
    });
    const ctx = createMockContext(failing);
    expect(await runActivate(failing, ctx)).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Error: nope' },
    });
    expect(ctx.mock.logs).toContainEqual({
      level: 'warn',
      message: 'onActivate failed (activation kept): Error: nope',
    });
  });
});
