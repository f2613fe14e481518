import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessRegistryEntry } from '@platform/harness';
import type { LiveFetch } from '@platform/harness/api';
import { defineIntegration } from '@platform/sdk/integration';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, send } from './_helpers.js';

// The harness keeps the host's storage rule (docs/design.md): a call's writes are saved when
// it succeeds, a checkpoint saves what came before it, and a call whose read changed meanwhile
// answers `conflict`, in fixtures mode (memory) and in live mode (the live store).

const API = 'https://api.acme.test';

const definition = defineIntegration({
  slug: 'acme-sync',
  egress: [API],
  storage: {
    account: {
      'sync_state/ids': z.array(z.string()),
      'sync_state/progress': z.object({ page: z.number() }),
    },
  },
  actions: {
    'remove-id': {
      description:
        'Reads the ids, asks the vendor (the test holds that answer), writes them back without one',
      input: z.object({ id: z.string() }),
      handler: async (ctx, input) => {
        const ids = (await ctx.storage.account.get('sync_state/ids')) ?? [];
        await ctx.fetch(`${API}/v1/hold/${input.id}`);
        await ctx.storage.account.set(
          'sync_state/ids',
          ids.filter((id) => id !== input.id),
        );
        return null;
      },
    },
    'sync-pages': {
      description: 'Saves its progress after each page; throws on page failOn',
      input: z.object({ pages: z.number(), failOn: z.number() }),
      handler: async (ctx, input) => {
        for (let page = 1; page <= input.pages; page += 1) {
          await ctx.storage.account.update('sync_state/progress', () => ({ page }));
          if (page === input.failOn) throw new Error(`page ${page} failed`);
          await ctx.checkpoint();
        }
        return null;
      },
    },
    read: {
      description: 'Reads both keys',
      input: z.object({}),
      handler: async (ctx) => ({
        ids: (await ctx.storage.account.get('sync_state/ids')) ?? null,
        progress: (await ctx.storage.account.get('sync_state/progress')) ?? null,
      }),
    },
  },
});

const action = (name: string) => `/api/integrations/acme-sync/actions/${name}`;

/** A vendor answer for `/v1/hold/<id>` that waits until the test releases it; `entered` says it was asked. */
function holdFor(id: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const asked = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const held = async (url: string) => {
    if (url.endsWith(`/v1/hold/${id}`)) {
      entered();
      await released;
    }
  };
  return { held, asked, release };
}

describe.each(['fixtures', 'live'] as const)('harness storage concurrency, %s mode', (mode) => {
  const hold = holdFor('a');
  const answer = () => Response.json({});
  const entry: HarnessRegistryEntry = {
    slug: 'acme-sync',
    name: 'Acme Sync',
    description: 'Sync',
    widgets: [],
    definition,
    ...(mode === 'live'
      ? { live: {} }
      : {
          triggerMocks: {
            storage: { account: { 'sync_state/ids': ['a', 'b', 'c'] } },
            fetchHandlers: [
              {
                match: `GET ${API}/v1/hold/a`,
                respond: async () => {
                  await hold.held(`${API}/v1/hold/a`);
                  return answer();
                },
              },
              { match: `GET ${API}/v1/hold/b`, respond: answer },
            ],
          },
        }),
  };
  const liveFetch: LiveFetch = async (request) => {
    await hold.held(request.url);
    return {
      status: 200,
      statusText: 'OK',
      headers: [['content-type', 'application/json']],
      body: btoa('{}'),
    };
  };
  const headers = mode === 'live' ? { 'x-harness-mode': 'live' } : {};

  async function setup() {
    const opened = await harness([entry], { liveFetch });
    if (mode === 'live') {
      const { writeFile, mkdir } = await import('node:fs/promises');
      await mkdir(join(opened.projectDir, '.platform/live'), { recursive: true });
      await writeFile(
        join(opened.projectDir, '.platform/live/store.json'),
        JSON.stringify({
          version: 1,
          integrations: {
            'acme-sync': {
              storage: { account: { 'sync_state/ids': ['a', 'b', 'c'] }, user: {} },
              secrets: { account: {} },
            },
          },
        }),
      );
    }
    const read = async () =>
      (await send(opened.handlers, 'POST', action('read'), { body: {}, headers })).body.data;
    return { ...opened, read };
  }

  it('answers 409 conflict to a call whose read changed before it saved, saving nothing of it', async () => {
    const { handlers, read } = await setup();
    const slow = send(handlers, 'POST', action('remove-id'), { body: { id: 'a' }, headers });
    await hold.asked;
    const fast = await send(handlers, 'POST', action('remove-id'), { body: { id: 'b' }, headers });
    expect(fast.status).toBe(200);
    hold.release();
    const conflicted = await slow;
    expect(conflicted).toMatchObject({
      status: 409,
      body: {
        ok: false,
        error: { code: 'conflict', message: 'Another call changed the same stored data; retry the call.' },
      },
    });
    expect((await read()).ids).toEqual(['a', 'c']);
    // Run again, it goes through.
    expect((await send(handlers, 'POST', action('remove-id'), { body: { id: 'a' }, headers })).status).toBe(
      200,
    );
    expect((await read()).ids).toEqual(['c']);
  });

  it('keeps what a failing call saved at its checkpoints, and nothing after them', async () => {
    const { handlers, read, projectDir } = await setup();
    const failed = await send(handlers, 'POST', action('sync-pages'), {
      body: { pages: 5, failOn: 3 },
      headers,
    });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatchObject({
      code: 'handler_error',
      devError: { message: 'page 3 failed' },
    });
    expect((await read()).progress).toEqual({ page: 2 });
    if (mode === 'live') {
      const store = JSON.parse(await readFile(join(projectDir, '.platform/live/store.json'), 'utf8'));
      expect(store.integrations['acme-sync'].storage.account['sync_state/progress']).toEqual({ page: 2 });
    }
  });
});
