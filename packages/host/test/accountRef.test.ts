import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSecret } from '../src/store/secrets.js';
import { addMembership, createAccount } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';

// `accountId` on every route takes an account's id or its slug; membership and activation are
// checked against the id it resolves to.
let host: TestHost;
let slug: string;

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string } }).error;

beforeAll(async () => {
  host = await startTestHost({ projects: ['notes', 'events', 'oauth'] });
  slug = (await host.db.query('SELECT slug FROM accounts WHERE id = $1', [host.accountId])).rows[0]!
    .slug as string;
  const { rows } = await host.db.query('SELECT source_id FROM integrations WHERE slug = $1', ['test-oauth']);
  for (const name of ['OAUTH_CLIENT_ID', 'OAUTH_CLIENT_SECRET']) {
    await writeSecret(host.db, host.services.secretBox, {
      scope: { slug: 'test-oauth', accountId: '', sourceId: rows[0]!.source_id as string },
      tier: 'global',
      name,
      value: `${name}-value`,
    });
  }
});
afterAll(() => host.close());

describe('accountId by id or slug', () => {
  it('runs an action for the same account by id and by slug', async () => {
    const byId = await host.call(
      `/api/integrations/test-notes/actions/add-note?accountId=${host.accountId}`,
      {
        json: { title: 'By id' },
      },
    );
    expect(byId.status).toBe(200);
    const bySlug = await host.call(`/api/integrations/test-notes/actions/add-note?accountId=${slug}`, {
      json: { title: 'By slug' },
    });
    expect(bySlug.status).toBe(200);
    const listed = await host.call(`/api/integrations/test-notes/actions/list-notes?accountId=${slug}`, {
      json: {},
    });
    expect(await listed.json()).toEqual({
      ok: true,
      data: [
        { id: 'n1', title: 'By id' },
        { id: 'n2', title: 'By slug' },
      ],
    });
  });

  it('reads storage, activation, deliveries and OAuth status by slug', async () => {
    const storage = await host.call(
      `/api/integrations/test-notes/storage?accountId=${slug}&keys=cache/notes`,
    );
    expect(storage.status).toBe(200);
    expect(await storage.json()).toMatchObject({
      ok: true,
      data: { 'cache/notes': [{ title: 'By id' }, {}] },
    });
    const activation = await host.call(`/api/integrations/test-notes/activation?accountId=${slug}`);
    expect(await activation.json()).toMatchObject({ ok: true, data: { active: true } });
    const deliveries = await host.call(`/api/integrations/test-events/deliveries?accountId=${slug}`);
    expect(await deliveries.json()).toEqual({ ok: true, data: { entries: [] } });
    const status = await host.call(`/api/integrations/test-oauth/oauth/status?accountId=${slug}`);
    expect(await status.json()).toEqual({ ok: true, data: { connected: false } });
  });

  it('starts an OAuth connection by slug, bound to the account id', async () => {
    const connect = await host.call(
      `/api/integrations/test-oauth/oauth/connect?accountId=${slug}&returnPath=/settings`,
    );
    expect(connect.status).toBe(302);
    expect(connect.headers.get('location')).toMatch(/^https:\/\/oauth\.provider\.test\/auth\?/);
    const { rows } = await host.db.query(
      "SELECT account_id FROM oauth_states WHERE integration_slug = 'test-oauth'",
    );
    expect(rows).toEqual([{ account_id: host.accountId }]);
  });

  it('takes a webhook delivery by slug and queues it for the account id', async () => {
    const response = await host.app.request(
      `/api/integrations/test-events/webhooks/flaky?accountId=${slug}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"by-slug"}' },
    );
    expect(response.status).toBe(202);
    const { rows } = await host.db.query(
      "SELECT account_id FROM jobs WHERE integration_slug = 'test-events' AND kind = 'webhook'",
    );
    expect(rows).toEqual([{ account_id: host.accountId }]);
  });

  it('answers 404 account_not_found for an unknown account, saying what was looked for', async () => {
    for (const path of [
      '/api/integrations/test-notes/actions/list-notes?accountId=alice-co',
      '/api/integrations/test-oauth/oauth/status?accountId=alice-co',
    ]) {
      const response = path.includes('/actions/')
        ? await host.call(path, { json: {} })
        : await host.call(path);
      expect(response.status).toBe(404);
      const error = await errorOf(response);
      expect(error.code).toBe('account_not_found');
      expect(error.message).toMatch(
        /^No account "alice-co" \(by id or slug\); pass the id or slug of an account/,
      );
    }
  });

  it('answers an unknown account on the webhook ingress like an account without the integration', async () => {
    const response = await host.app.request(
      '/api/integrations/test-events/webhooks/flaky?accountId=alice-co',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id":"x"}',
      },
    );
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error.code).toBe('not_activated');
    expect(error.message).toContain('"alice-co" (by id or slug)');
  });

  it('answers 403 forbidden to a non-member, by slug as by id', async () => {
    const outsider = await host.addUser('member', { member: false });
    for (const account of [slug, host.accountId]) {
      const response = await host.call(
        `/api/integrations/test-notes/actions/list-notes?accountId=${account}`,
        {
          json: {},
          headers: { authorization: `Bearer ${outsider.token}` },
        },
      );
      expect(response.status).toBe(403);
      const error = await errorOf(response);
      expect(error.code).toBe('forbidden');
      expect(error.message).toBe(
        `You are not a member of account "${account}"; ask an account owner to add you.`,
      );
    }
  });

  it('resolves an id before a slug, so a slug equal to another account id lets nobody in', async () => {
    // Only the store can create it (the admin CLI refuses id-shaped slugs), but the rule must hold.
    const outsider = await host.addUser('owner', { member: false });
    const impostor = await createAccount(host.db, { slug: host.accountId, name: 'Impostor' });
    await addMembership(host.db, impostor.id, outsider.userId, 'owner');
    const refused = await host.call(
      `/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`,
      { json: {}, headers: { authorization: `Bearer ${outsider.token}` } },
    );
    expect(refused.status).toBe(403);
    const owner = await host.call(
      `/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`,
      {
        json: {},
      },
    );
    expect(owner.status).toBe(200);
    expect(((await owner.json()) as { data: unknown[] }).data).toHaveLength(2);
  });
});
