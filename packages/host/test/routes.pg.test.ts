import { createHost, type Host } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStorage } from '../src/store/storage.js';
import { pgSchema, startTestHost, type TestHost } from './_host.js';
import { testDatabase } from './_postgres.js';

const { url: baseUrl, skipped } = testDatabase();
// One fixed instant for both instances, so the rate-limit window cannot roll over mid-test.
const now = () => new Date('2026-11-21T12:00:30Z');

describe.skipIf(!baseUrl)(`host routes on PostgreSQL${baseUrl ? '' : ` (skipped: ${skipped})`}`, () => {
  let schema: Awaited<ReturnType<typeof pgSchema>>;
  let host: TestHost;
  let second: Host;
  const action = (name: string) => `/api/integrations/test-notes/actions/${name}?accountId=${host.accountId}`;
  const post = (app: Host['app'], name: string, body: unknown) =>
    app.request(action(name), {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    schema = await pgSchema(baseUrl!, 'routes');
    host = await startTestHost({
      databaseUrl: schema.url,
      now,
      limits: { ratePerUser: 8, ratePerAccount: 1000 },
    });
    // A second host process would do the same: its own pool, migrations already applied.
    second = await createHost({
      databaseUrl: schema.url,
      now,
      logger: pino({ level: 'silent' }),
      limits: { ratePerUser: 8, ratePerAccount: 1000 },
    });
  });
  afterAll(async () => {
    await second?.close();
    await host?.close();
    await schema?.drop();
  });

  it('serves actions from either instance over the same data', async () => {
    expect(await (await post(host.app, 'add-note', { title: 'from one' })).json()).toEqual({
      ok: true,
      data: { id: 'n1', title: 'from one' },
    });
    expect(await (await post(second.app, 'add-note', { title: 'from two' })).json()).toEqual({
      ok: true,
      data: { id: 'n2', title: 'from two' },
    });
    expect(await (await post(host.app, 'list-notes', {})).json()).toEqual({
      ok: true,
      data: [
        { id: 'n1', title: 'from one' },
        { id: 'n2', title: 'from two' },
      ],
    });
  });

  it('keeps nothing from a failing handler', async () => {
    expect((await post(second.app, 'write-then-fail', {})).status).toBe(500);
    const notes = await readStorage(
      host.db,
      { slug: 'test-notes', accountId: host.accountId, scope: 'account', userId: '' },
      ['cache/notes'],
    );
    expect(notes.get('cache/notes')).toHaveLength(2);
  });

  it('reads storage and activation state through the routes', async () => {
    const storage = await host.call(
      `/api/integrations/test-notes/storage?accountId=${host.accountId}&keys=cache/notes,settings`,
    );
    expect(await storage.json()).toMatchObject({ ok: true, data: { settings: null } });
    const activation = await second.app.request(
      `/api/integrations/test-notes/activation?accountId=${host.accountId}`,
      {
        headers: { authorization: `Bearer ${host.token}` },
      },
    );
    expect(await activation.json()).toMatchObject({ ok: true, data: { active: true } });
  });

  it('shares the rate limit between the two instances', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      // Each instance counts in memory and syncs with rate_limits every 250 ms; sync now, so the
      // count is exact here (callCache.pg.test.ts checks the error bound between syncs).
      await Promise.all([host.services.actionRateLimit.sync(), second.services.actionRateLimit.sync()]);
      await Promise.all([host.services.actionRateLimit.sync(), second.services.actionRateLimit.sync()]);
      statuses.push((await post(i % 2 === 0 ? host.app : second.app, 'list-notes', {})).status);
    }
    // 4 action calls were made before this test; the limit is 8 a minute for the user.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
