// The dashboard's routes (routes/dashboard.ts): each user's placements of an account's widgets,
// made from the partners' layouts on the first read, with collapse, pin, remove, moves against a
// version, reset, and each integration's health. Every test signs in as a user of its own.
import { randomUUID } from 'node:crypto';
import { type DashboardResponse, type DashboardWidget, dashboardResponseSchema } from '@platform/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordOAuthConnection } from '../src/oauth/oauthConnections.js';
import { deleteActivation, upsertActivation } from '../src/store/integrations.js';
import { createToken } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({ projects: ['dashboard/board', 'dashboard/crm'] });
  // Tenancy: a version is live for an account only on a source that serves it.
  await host.db.query(
    'INSERT INTO source_accounts (source_id, account_id) SELECT DISTINCT source_id, $1 FROM integrations',
    [host.accountId],
  );
});
afterAll(() => host.close());

const base = () => `/api/platform/accounts/${host.accountId}/dashboard`;
const as = (token: string) => ({ authorization: `Bearer ${token}` });

async function newUser(): Promise<{ userId: string; token: string; headers: { authorization: string } }> {
  const user = await host.addUser('member');
  return { ...user, headers: as(user.token) };
}

async function read(response: Response): Promise<DashboardResponse> {
  const body = (await response.json()) as { data: unknown };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return dashboardResponseSchema.parse(body.data);
}

type ErrorBody = { code: string; message: string; hint?: string };
async function errorOf(response: Response, status: number): Promise<ErrorBody> {
  const body = (await response.json()) as { error: ErrorBody };
  expect(response.status, JSON.stringify(body)).toBe(status);
  return body.error;
}

const dashboard = async (headers: { authorization: string }) => read(await host.call(base(), { headers }));
const find = (list: readonly DashboardWidget[], widgetId: string) => {
  const found = list.find((widget) => widget.widget.id === widgetId);
  if (found === undefined) throw new Error(`no widget ${widgetId} in ${list.map((w) => w.widget.id)}`);
  return found;
};
const patch = (headers: { authorization: string }, id: string, json: unknown) =>
  host.call(`${base()}/widgets/${id}`, { method: 'PATCH', json, headers });

describe('the dashboard', () => {
  it("makes the placements from the partners' layouts on the first read, the same ids after", async () => {
    const user = await newUser();
    const first = await dashboard(user.headers);
    expect(first.version).toBe(1);
    expect(first.removed).toEqual([]);
    expect(first.widgets.map((widget) => `${widget.integration.slug}/${widget.widget.id}`)).toEqual([
      'test-board/board',
      'test-board/recent',
      'test-board/loose',
      'test-crm/deals',
    ]);
    const { rows } = await host.db.query(
      "SELECT s.name FROM sources s JOIN integrations i ON i.source_id = s.id WHERE i.slug = 'test-board'",
    );
    expect(find(first.widgets, 'board')).toMatchObject({
      integration: { slug: 'test-board', name: 'test-board', version: 1, publisher: rows[0]?.name },
      widget: { id: 'board', name: 'Board', isCollapsible: true, isPinnable: true, aiFooterEnabled: false },
      collapsed: false,
      isPinned: false,
      // lg as declared, md derived from it, sm stacked from md.
      layout: {
        lg: { x: 0, y: 0, w: 8, h: 6 },
        md: { x: 0, y: 0, w: 5, h: 6 },
        sm: { x: 0, y: 0, w: 1, h: 6 },
      },
    });
    expect(find(first.widgets, 'recent').layout).toEqual({
      lg: { x: 8, y: 0, w: 4, h: 6 },
      md: { x: 5, y: 0, w: 3, h: 6 },
      sm: { x: 0, y: 6, w: 1, h: 6 },
    });
    // No layout: after the others.
    expect(find(first.widgets, 'loose').layout.lg).toEqual({ x: 0, y: 6, w: 6, h: 4 });
    expect(find(first.widgets, 'loose').widget.aiFooterEnabled).toBe(true);
    // The second integration's block below the first's at every breakpoint (its sm as declared).
    expect(find(first.widgets, 'deals').layout).toEqual({
      lg: { x: 2, y: 10, w: 6, h: 3 },
      md: { x: 1, y: 10, w: 4, h: 3 },
      sm: { x: 0, y: 16, w: 1, h: 5 },
    });
    const again = await dashboard(user.headers);
    expect(again.widgets.map((widget) => widget.widgetConfigId)).toEqual(
      first.widgets.map((w) => w.widgetConfigId),
    );
    expect(again.version).toBe(1);
  });

  it('keeps each user its own placements, collapse and pin, across reads', async () => {
    const [alice, bob] = [await newUser(), await newUser()];
    const aliceBoard = find((await dashboard(alice.headers)).widgets, 'board');
    const bobBoard = find((await dashboard(bob.headers)).widgets, 'board');
    expect(aliceBoard.widgetConfigId).not.toBe(bobBoard.widgetConfigId);
    const collapsed = await read(
      await patch(alice.headers, aliceBoard.widgetConfigId, { collapsed: true, isPinned: true }),
    );
    expect(find(collapsed.widgets, 'board')).toMatchObject({ collapsed: true, isPinned: true });
    expect(collapsed.version).toBe(2);
    expect(find((await dashboard(alice.headers)).widgets, 'board')).toMatchObject({
      collapsed: true,
      isPinned: true,
    });
    expect(find((await dashboard(bob.headers)).widgets, 'board')).toMatchObject({
      collapsed: false,
      isPinned: false,
    });
    // Another user cannot touch alice's placement by its id.
    const foreign = await errorOf(
      await patch(bob.headers, aliceBoard.widgetConfigId, { collapsed: false }),
      404,
    );
    expect(foreign.code).toBe('widget_not_found');
    expect(find((await dashboard(alice.headers)).widgets, 'board').collapsed).toBe(true);
  });

  it('lists pinned widgets first, and unpinned ones back in their order', async () => {
    const user = await newUser();
    const deals = find((await dashboard(user.headers)).widgets, 'deals');
    const pinned = await read(await patch(user.headers, deals.widgetConfigId, { isPinned: true }));
    expect(pinned.widgets.map((widget) => widget.widget.id)).toEqual(['deals', 'board', 'recent', 'loose']);
    const unpinned = await read(await patch(user.headers, deals.widgetConfigId, { isPinned: false }));
    expect(unpinned.widgets.map((widget) => widget.widget.id)).toEqual(['board', 'recent', 'loose', 'deals']);
  });

  it("refuses collapse and pin where the widget's chrome flags do not allow them", async () => {
    const user = await newUser();
    const { widgets } = await dashboard(user.headers);
    const pin = await errorOf(
      await patch(user.headers, find(widgets, 'recent').widgetConfigId, { isPinned: true }),
      400,
    );
    expect(pin).toMatchObject({ code: 'invalid_input' });
    expect(pin.message).toContain('cannot be pinned: its definition does not set isPinnable');
    const collapse = await errorOf(
      await patch(user.headers, find(widgets, 'loose').widgetConfigId, { collapsed: true }),
      400,
    );
    expect(collapse.message).toContain('isCollapsible');
    // Unsetting is always allowed; a body with none of the fields is refused.
    expect(
      (await patch(user.headers, find(widgets, 'loose').widgetConfigId, { collapsed: false })).status,
    ).toBe(200);
    const empty = await errorOf(await patch(user.headers, find(widgets, 'loose').widgetConfigId, {}), 400);
    expect(empty.message).toContain('at least one of collapsed, isPinned, removed');
    const after = await dashboard(user.headers);
    expect(find(after.widgets, 'recent').isPinned).toBe(false);
    expect(find(after.widgets, 'loose').collapsed).toBe(false);
  });

  it('saves moves against a version; a stale version is 409 conflict and loses nothing', async () => {
    const user = await newUser();
    const start = await dashboard(user.headers);
    const board = find(start.widgets, 'board');
    const put = (json: unknown) =>
      host.call(`${base()}/layout`, { method: 'PUT', json, headers: user.headers });
    const moved = await read(
      await put({
        version: start.version,
        layouts: { [board.widgetConfigId]: { lg: { x: 4, y: 0, w: 8, h: 3 } } },
      }),
    );
    expect(moved.version).toBe(start.version + 1);
    // Only the breakpoint sent changes.
    expect(find(moved.widgets, 'board').layout).toEqual({ ...board.layout, lg: { x: 4, y: 0, w: 8, h: 3 } });
    const stale = await errorOf(
      await put({
        version: start.version,
        layouts: { [board.widgetConfigId]: { lg: { x: 0, y: 9, w: 2, h: 2 } } },
      }),
      409,
    );
    expect(stale.code).toBe('conflict');
    expect(stale.hint).toContain('Reload the dashboard');
    expect(find((await dashboard(user.headers)).widgets, 'board').layout.lg).toEqual({
      x: 4,
      y: 0,
      w: 8,
      h: 3,
    });

    const outside = await errorOf(
      await put({
        version: moved.version,
        layouts: { [board.widgetConfigId]: { md: { x: 4, y: 0, w: 5, h: 3 } } },
      }),
      400,
    );
    expect(outside.message).toBe(`layouts.${board.widgetConfigId}.md: x + w is 9, past the 8 columns of md.`);
    const unknown = await errorOf(
      await put({ version: moved.version, layouts: { [randomUUID()]: { lg: { x: 0, y: 0, w: 1, h: 1 } } } }),
      404,
    );
    expect(unknown.code).toBe('widget_not_found');
    const malformed = await errorOf(
      await put({ version: moved.version, layouts: { x: { lg: { x: 0 } } } }),
      400,
    );
    expect(malformed).toMatchObject({ code: 'invalid_input' });
    // None of the refusals moved the version.
    expect((await dashboard(user.headers)).version).toBe(moved.version);
  });

  it('lets one of two saves made on the same version through, the other 409', async () => {
    const user = await newUser();
    const start = await dashboard(user.headers);
    const board = find(start.widgets, 'board');
    const save = (y: number) =>
      host.call(`${base()}/layout`, {
        method: 'PUT',
        json: {
          version: start.version,
          layouts: { [board.widgetConfigId]: { lg: { x: 0, y, w: 4, h: 2 } } },
        },
        headers: user.headers,
      });
    const answers = await Promise.all([save(30), save(40)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers.findIndex((answer) => answer.status === 200);
    expect(find((await dashboard(user.headers)).widgets, 'board').layout.lg.y).toBe(winner === 0 ? 30 : 40);
  });

  it('removes a widget and adds it back under the same id', async () => {
    const user = await newUser();
    const recent = find((await dashboard(user.headers)).widgets, 'recent');
    const removed = await read(await patch(user.headers, recent.widgetConfigId, { removed: true }));
    expect(removed.widgets.map((widget) => widget.widget.id)).not.toContain('recent');
    expect(removed.removed).toEqual([{ ...recent, health: expect.anything() }]);
    expect((await dashboard(user.headers)).removed.map((widget) => widget.widgetConfigId)).toEqual([
      recent.widgetConfigId,
    ]);
    const back = await read(await patch(user.headers, recent.widgetConfigId, { removed: false }));
    expect(find(back.widgets, 'recent').widgetConfigId).toBe(recent.widgetConfigId);
    expect(back.removed).toEqual([]);
  });

  it("resets to the partners' layouts, removed widgets back too", async () => {
    const user = await newUser();
    const start = await dashboard(user.headers);
    const board = find(start.widgets, 'board');
    const deals = find(start.widgets, 'deals');
    await read(
      await host.call(`${base()}/layout`, {
        method: 'PUT',
        json: {
          version: start.version,
          layouts: { [board.widgetConfigId]: { lg: { x: 0, y: 20, w: 2, h: 2 } } },
        },
        headers: user.headers,
      }),
    );
    await read(await patch(user.headers, deals.widgetConfigId, { removed: true, isPinned: true }));
    const reset = await read(await host.call(`${base()}/reset`, { method: 'POST', headers: user.headers }));
    expect(reset.removed).toEqual([]);
    expect(find(reset.widgets, 'board').layout).toEqual(board.layout);
    expect(find(reset.widgets, 'deals')).toMatchObject({
      layout: deals.layout,
      widgetConfigId: deals.widgetConfigId,
      isPinned: true,
    });
    expect(reset.version).toBe(start.version + 3);
  });

  it('shows no widget of an integration no longer activated, and its placement again when it is back', async () => {
    const user = await newUser();
    const deals = find((await dashboard(user.headers)).widgets, 'deals');
    await read(await patch(user.headers, deals.widgetConfigId, { isPinned: true }));
    await deleteActivation(host.db, 'test-crm', host.accountId);
    try {
      const without = await dashboard(user.headers);
      expect([...without.widgets, ...without.removed].map((widget) => widget.integration.slug)).not.toContain(
        'test-crm',
      );
      expect(
        (await errorOf(await patch(user.headers, deals.widgetConfigId, { isPinned: false }), 404)).code,
      ).toBe('widget_not_found');
    } finally {
      await upsertActivation(host.db, {
        slug: 'test-crm',
        accountId: host.accountId,
        userId: host.userId,
        data: null,
      });
    }
    expect(find((await dashboard(user.headers)).widgets, 'deals')).toMatchObject({
      widgetConfigId: deals.widgetConfigId,
      isPinned: true,
    });
  });

  it('shows no widget of a source that no longer serves the account', async () => {
    const user = await newUser();
    expect((await dashboard(user.headers)).widgets).toHaveLength(4);
    const { rows } = await host.db.query(
      'DELETE FROM source_accounts WHERE account_id = $1 RETURNING source_id, account_id',
      [host.accountId],
    );
    try {
      expect((await dashboard(user.headers)).widgets).toEqual([]);
    } finally {
      for (const row of rows) {
        await host.db.query('INSERT INTO source_accounts (source_id, account_id) VALUES ($1, $2)', [
          row.source_id,
          row.account_id,
        ]);
      }
    }
    expect((await dashboard(user.headers)).widgets).toHaveLength(4);
  });

  it('refuses a user outside the account, and a token without publish from changing it', async () => {
    const outsider = await host.addUser('member', { member: false });
    const refused = await errorOf(await host.call(base(), { headers: as(outsider.token) }), 404);
    expect(refused.code).toBe('account_not_found');
    const user = await newUser();
    const { token } = await createToken(host.db, { userId: user.userId, kind: 'token', scopes: ['read'] });
    const { widgets } = await read(await host.call(base(), { headers: as(token) }));
    const write = await errorOf(await patch(as(token), widgets[0]!.widgetConfigId, { collapsed: true }), 403);
    expect(write.code).toBe('forbidden');
    const anonymous = await host.app.request(base());
    expect(anonymous.status).toBe(401);
    const crossSite = await host.call(`${base()}/reset`, {
      method: 'POST',
      headers: { ...user.headers, origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
  });

  it('shows the health of each integration: a missing OAuth connection, a failed delivery and schedule run', async () => {
    const user = await newUser();
    const start = await dashboard(user.headers);
    expect(find(start.widgets, 'board').health).toEqual({
      status: 'attention',
      items: [
        {
          kind: 'oauth',
          message: 'test-board is not connected; an owner or admin of the account connects it.',
        },
      ],
    });
    expect(find(start.widgets, 'deals').health).toEqual({ status: 'ok', items: [] });

    await recordOAuthConnection(host.db, {
      slug: 'test-board',
      accountId: host.accountId,
      userId: host.userId,
      scope: 'read',
      connectedAt: new Date(),
    });
    const job = (kind: string, target: string, status: string, finishedAt: string, error: string | null) =>
      host.db.query(
        `INSERT INTO jobs (id, kind, integration_slug, account_id, payload, status, attempts, last_error, created_at, finished_at)
         VALUES ($1, $2, 'test-board', $3, $4::jsonb, $5, 1, $6, $7, $7)`,
        [randomUUID(), kind, host.accountId, JSON.stringify({ target }), status, error, finishedAt],
      );
    await job('webhook', 'note-changed', 'failed', '2026-12-01T10:00:00.000Z', 'vendor down');
    await job('schedule', 'nightly', 'succeeded', '2026-12-01T09:00:00.000Z', null);
    const failed = find((await dashboard(user.headers)).widgets, 'board').health;
    expect(failed).toEqual({
      status: 'error',
      items: [
        {
          kind: 'delivery',
          message: 'The delivery to webhook "note-changed" failed: vendor down',
          at: '2026-12-01T10:00:00.000Z',
        },
      ],
    });
    // Every widget of the integration carries it; the other integration's do not.
    expect(find((await dashboard(user.headers)).widgets, 'recent').health).toEqual(failed);
    expect(find((await dashboard(user.headers)).widgets, 'deals').health.status).toBe('ok');

    // A later delivery that succeeded clears it; a schedule run that failed after its success shows.
    await job('webhook', 'note-changed', 'succeeded', '2026-12-01T11:00:00.000Z', null);
    await job('schedule', 'nightly', 'failed', '2026-12-01T12:00:00.000Z', 'timed out');
    expect(find((await dashboard(user.headers)).widgets, 'board').health).toEqual({
      status: 'error',
      items: [
        {
          kind: 'schedule',
          message: 'The run of schedule "nightly" failed: timed out',
          at: '2026-12-01T12:00:00.000Z',
        },
      ],
    });
  });
});
