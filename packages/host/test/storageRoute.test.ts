import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './_host.js';

let host: TestHost;
const storage = (query: string) =>
  host.call(`/api/integrations/test-notes/storage?accountId=${host.accountId}&${query}`);

beforeAll(async () => {
  host = await startTestHost();
  await host.call(`/api/integrations/test-notes/actions/add-note?accountId=${host.accountId}`, {
    json: { title: 'Stored' },
  });
  await host.call(`/api/integrations/test-notes/actions/set-preferences?accountId=${host.accountId}`, {
    json: { sort: 'asc' },
  });
});
afterAll(() => host.close());

describe('storage route', () => {
  it('answers declared account keys indexed by key, null when unset', async () => {
    const response = await storage('keys=cache/notes,settings');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      data: { 'cache/notes': [{ id: 'n1', title: 'Stored' }], settings: null },
    });
  });

  it('reads user scope for the calling user only', async () => {
    expect(await (await storage('keys=preferences&scope=user')).json()).toEqual({
      ok: true,
      data: { preferences: { sort: 'asc' } },
    });
    const other = await host.addUser('member');
    const theirs = await host.call(
      `/api/integrations/test-notes/storage?accountId=${host.accountId}&keys=preferences&scope=user`,
      {
        headers: { authorization: `Bearer ${other.token}` },
      },
    );
    expect(await theirs.json()).toEqual({ ok: true, data: { preferences: null } });
  });

  it('answers invalid_input (400) for an undeclared key, naming it and the declared ones', async () => {
    const response = await storage('keys=settings,secret');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_input');
    expect(body.error.message).toContain('"secret"');
    expect(body.error.message).toContain('cache/notes, settings');
    expect((await storage('keys=preferences')).status).toBe(400);
  });

  it('answers invalid_input for missing keys and an unknown scope', async () => {
    expect((await storage('keys=')).status).toBe(400);
    expect(await (await storage('keys=settings&scope=team')).json()).toMatchObject({
      error: { code: 'invalid_input' },
    });
  });

  it('needs the same credentials as the actions route', async () => {
    const anonymous = await host.app.request(
      `/api/integrations/test-notes/storage?accountId=${host.accountId}&keys=settings`,
    );
    expect(anonymous.status).toBe(401);
  });
});
