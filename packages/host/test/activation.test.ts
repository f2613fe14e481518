import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSecret } from '../src/store/secrets.js';
import { startTestHost, type TestHost } from './_host.js';

let host: TestHost;
const activation = (suffix = '') =>
  `/api/integrations/test-notes/activation${suffix}?accountId=${host.accountId}`;
const settings = async () =>
  (
    (await (
      await host.call(`/api/integrations/test-notes/storage?accountId=${host.accountId}&keys=settings`)
    ).json()) as {
      data: { settings: unknown };
    }
  ).data.settings;

beforeAll(async () => {
  host = await startTestHost({ activate: false });
});
afterAll(() => host.close());

describe('activation routes', () => {
  it('reports an inactive integration', async () => {
    expect(await (await host.call(activation())).json()).toEqual({
      ok: true,
      data: { active: false, data: null },
    });
  });

  it('activates, runs onActivate after the activation is persisted, and is idempotent', async () => {
    const first = await host.call(activation(), { json: { data: { workspace: 'w1' } } });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({
      ok: true,
      data: { active: true, created: true, onActivate: { ok: true, ran: true } },
    });
    expect(await settings()).toEqual({ prefix: 'activated' });
    const again = await host.call(activation(), { json: {} });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ data: { created: false, data: { workspace: 'w1' } } });
    const state = (await (await host.call(activation())).json()) as {
      data: { active: boolean; data: unknown; activatedAt: string };
    };
    expect(state.data).toMatchObject({ active: true, data: { workspace: 'w1' } });
    expect(Number.isNaN(Date.parse(state.data.activatedAt))).toBe(false);
  });

  it('updates activation data and runs onActivate again', async () => {
    await host.call(`/api/integrations/test-notes/actions/add-note?accountId=${host.accountId}`, {
      json: { title: 'x' },
    });
    const response = await host.call(activation('/data'), {
      method: 'PUT',
      json: { data: { workspace: 'w2' } },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      data: { data: { workspace: 'w2' }, onActivate: { ok: true, ran: true } },
    });
    expect(await (await host.call(activation())).json()).toMatchObject({
      data: { data: { workspace: 'w2' } },
    });
  });

  it('refuses bodies that are not an object with data', async () => {
    expect((await host.call(activation('/data'), { method: 'PUT', json: { nope: 1 } })).status).toBe(400);
    expect(
      (
        await host.call(activation(), {
          method: 'POST',
          body: '[1]',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
  });

  it('lets only owners and admins change activations', async () => {
    const member = await host.addUser('member');
    const refused = await host.call(activation(), {
      method: 'DELETE',
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(refused.status).toBe(403);
    const admin = await host.addUser('admin');
    const allowed = await host.call(activation('/data'), {
      method: 'PUT',
      json: { data: { by: 'admin' } },
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(allowed.status).toBe(200);
  });

  it('deactivates; actions then answer not_activated; data updates need an activation', async () => {
    const response = await host.call(activation(), { method: 'DELETE' });
    expect(await response.json()).toEqual({ ok: true, data: { active: false, removed: true } });
    const action = await host.call(
      `/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`,
      { json: {} },
    );
    expect(await action.json()).toMatchObject({ error: { code: 'not_activated' } });
    expect((await host.call(activation('/data'), { method: 'PUT', json: { data: {} } })).status).toBe(403);
  });
});

describe('onActivate failures are not fatal', () => {
  it("keeps the activation, reports the failure, and keeps none of the hook's writes", async () => {
    const failing = await startTestHost({ activate: false });
    try {
      const { rows } = await failing.db.query<{ source_id: string }>(
        "SELECT source_id FROM integrations WHERE slug = 'test-notes'",
      );
      await writeSecret(failing.db, failing.services.secretBox, {
        scope: { slug: 'test-notes', accountId: failing.accountId, sourceId: rows[0]!.source_id },
        tier: 'global',
        name: 'FAIL_ON_ACTIVATE',
        value: 'yes',
      });
      const url = `/api/integrations/test-notes/activation?accountId=${failing.accountId}`;
      const response = await failing.call(url, { json: { data: { x: 1 } } });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({
        ok: true,
        data: { active: true, created: true, onActivate: { ok: false, error: 'handler_error' } },
      });
      expect(await (await failing.call(url)).json()).toMatchObject({
        data: { active: true, data: { x: 1 } },
      });
      const storage = await failing.call(
        `/api/integrations/test-notes/storage?accountId=${failing.accountId}&keys=settings`,
      );
      expect(await storage.json()).toEqual({ ok: true, data: { settings: null } });
    } finally {
      await failing.close();
    }
  });
});
