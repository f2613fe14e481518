// The dashboard's routes (routes/dashboard.ts): each user's placements of an account's widgets,
// made from the partners' layouts on the first read, with collapse, pin, remove, moves against a
// version, and reset. Every test signs in as a user of its own.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/store/users.js';
import { dashboardClient, startDashboardHost } from './_dashboard.js';
import type { TestHost } from './_host.js';

let host: TestHost;
beforeAll(async () => {
  host = await startDashboardHost();
});
afterAll(() => host.close());

const { base, as, read, newUser, errorOf, dashboard, find, patch } = dashboardClient(() => host);

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
});
