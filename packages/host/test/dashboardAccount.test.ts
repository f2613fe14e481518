// The dashboard as the account around it changes (routes/dashboard.ts): integrations deactivated,
// activated later or no longer served, each integration's health (events/integrationHealth.ts),
// and the browser's session cookie under the Origin rule.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordOAuthConnection } from '../src/oauth/oauthConnections.js';
import { SESSION_COOKIE } from '../src/routes/_auth.js';
import { deleteActivation, upsertActivation } from '../src/store/integrations.js';
import { createToken } from '../src/store/users.js';
import { dashboardClient, startDashboardHost } from './_dashboard.js';
import type { TestHost } from './_host.js';

let host: TestHost;
beforeAll(async () => {
  host = await startDashboardHost();
});
afterAll(() => host.close());

const { base, read, newUser, errorOf, dashboard, find, patch } = dashboardClient(() => host);

describe('the dashboard and its account', () => {
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

    await recordOAuthConnection(host.db, host.services.secretBox, {
      slug: 'test-board',
      accountId: host.accountId,
      userId: host.userId,
      scope: 'read',
      connectedAt: new Date(),
      tokens: {
        accessToken: 'at',
        refreshToken: 'rt',
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      },
      beforeExpiryMs: 15 * 60_000,
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

  it("places an integration activated later below the user's own grid, moves included", async () => {
    const user = await newUser();
    await deleteActivation(host.db, 'test-crm', host.accountId);
    try {
      const start = await dashboard(user.headers);
      expect(start.widgets.map((widget) => widget.widget.id)).toEqual(['board', 'recent', 'loose']);
      const board = find(start.widgets, 'board');
      await read(
        await host.call(`${base()}/layout`, {
          method: 'PUT',
          json: {
            version: start.version,
            layouts: { [board.widgetConfigId]: { lg: { x: 0, y: 20, w: 4, h: 2 } } },
          },
          headers: user.headers,
        }),
      );
    } finally {
      await upsertActivation(host.db, {
        slug: 'test-crm',
        accountId: host.accountId,
        userId: host.userId,
        data: null,
      });
    }
    // Below the lowest placement at each breakpoint: lg 22 (the move), md 10 and sm 16 (as placed).
    expect(find((await dashboard(user.headers)).widgets, 'deals').layout).toEqual({
      lg: { x: 2, y: 22, w: 6, h: 3 },
      md: { x: 1, y: 10, w: 4, h: 3 },
      sm: { x: 0, y: 16, w: 1, h: 5 },
    });
  });

  it("takes the browser's session cookie, and its changes only from this host's pages", async () => {
    const user = await newUser();
    const { token } = await createToken(host.db, { userId: user.userId, kind: 'session' });
    const cookie = { cookie: `${SESSION_COOKIE}=${token}` };
    const { widgets } = await read(await host.app.request(base(), { headers: cookie }));
    const change = (headers: Record<string, string>) =>
      host.app.request(`${base()}/widgets/${find(widgets, 'board').widgetConfigId}`, {
        method: 'PATCH',
        headers: { ...cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ collapsed: true }),
      });
    expect((await errorOf(await change({}), 403)).code).toBe('forbidden');
    expect(find((await dashboard(user.headers)).widgets, 'board').collapsed).toBe(false);
    expect(
      find((await read(await change({ 'sec-fetch-site': 'same-origin' }))).widgets, 'board').collapsed,
    ).toBe(true);
  });
});
