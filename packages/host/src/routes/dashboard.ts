import {
  BREAKPOINT_ORDER,
  BREAKPOINTS,
  type DashboardResponse,
  type DashboardWidget,
  dashboardLayoutRequestSchema,
  dashboardWidgetRequestSchema,
  fitsBreakpoint,
} from '@platform/wire';
import { type Context, Hono } from 'hono';
import type { Queryable } from '../db/Db.js';
import { integrationHealth } from '../events/integrationHealth.js';
import type { HostServices } from '../HostServices.js';
import {
  bumpDashboardVersion,
  dashboardIntegrations,
  ensurePlacements,
  resetPlacements,
  savePlacementLayout,
  updatePlacement,
} from '../store/dashboard.js';
import type { User } from '../store/users.js';
import { memberAccount } from './_account.js';
import { checkStateChange, requireCliUser } from './_auth.js';
import { RouteError } from './_errors.js';
import { parsedBody } from './_jsonBody.js';

const LAYOUT_USAGE =
  '{ "version": 3, "layouts": { "<widgetConfigId>": { "lg": { "x": 0, "y": 0, "w": 6, "h": 4 } } } }';
const WIDGET_USAGE = '{ "collapsed": true } (or "isPinned", "removed")';
const RELOAD_HINT = 'GET /api/platform/accounts/<account>/dashboard for the current placements and version.';

/**
 * `/api/platform/accounts/:account/dashboard`: the signed-in user's dashboard in an account (any
 * member; `read` to look, `publish` to change): `GET` (placements made on the first read from the
 * partners' layouts), `PUT .../layout` (moves and resizes against a version; a stale one is 409
 * `conflict`), `PATCH .../widgets/:widgetConfigId` (collapse, pin, remove, add back), `POST .../reset`.
 * Every write answers the dashboard as `GET` does, with its new version.
 */
export function dashboardRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/accounts/:account/dashboard', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    const { account } = await memberAccount(services, user, c.req.param('account'));
    const data = await services.db.transaction((tx) => dashboardView(tx, user.id, account.id));
    return c.json({ ok: true, data });
  });

  app.put('/accounts/:account/dashboard/layout', async (c) => {
    const { user, accountId } = await writer(services, c);
    const body = await parsedBody(services.limits, c, dashboardLayoutRequestSchema, LAYOUT_USAGE);
    for (const [id, layout] of Object.entries(body.layouts)) {
      for (const breakpoint of BREAKPOINT_ORDER) {
        const rect = layout[breakpoint];
        if (rect === undefined || fitsBreakpoint(breakpoint, rect)) continue;
        throw new RouteError(
          400,
          'invalid_input',
          `layouts.${id}.${breakpoint}: x + w is ${rect.x + rect.w}, past the ${BREAKPOINTS[breakpoint].columns} columns of ${breakpoint}.`,
          { hint: `Send rectangles inside the grid: ${LAYOUT_USAGE}.` },
        );
      }
    }
    const data = await services.db.transaction(async (tx) => {
      const before = await dashboardView(tx, user.id, accountId);
      const known = new Set([...before.widgets, ...before.removed].map((widget) => widget.widgetConfigId));
      const unknown = Object.keys(body.layouts).find((id) => !known.has(id));
      if (unknown !== undefined) throw widgetNotFound(unknown);
      if (!(await bumpDashboardVersion(tx, { userId: user.id, accountId, expected: body.version }))) {
        throw new RouteError(
          409,
          'conflict',
          `The dashboard changed since version ${body.version} (it is at ${before.version}): another tab or browser saved first.`,
          {
            version: before.version,
            hint: `Reload the dashboard and move the widgets again: ${RELOAD_HINT}`,
          },
        );
      }
      for (const [widgetConfigId, layout] of Object.entries(body.layouts)) {
        await savePlacementLayout(tx, { userId: user.id, widgetConfigId, layout });
      }
      return dashboardView(tx, user.id, accountId);
    });
    return c.json({ ok: true, data });
  });

  app.patch('/accounts/:account/dashboard/widgets/:widgetConfigId', async (c) => {
    const { user, accountId } = await writer(services, c);
    const body = await parsedBody(services.limits, c, dashboardWidgetRequestSchema, WIDGET_USAGE);
    const widgetConfigId = c.req.param('widgetConfigId');
    const data = await services.db.transaction(async (tx) => {
      const before = await dashboardView(tx, user.id, accountId);
      const placed = [...before.widgets, ...before.removed].find(
        (widget) => widget.widgetConfigId === widgetConfigId,
      );
      if (placed === undefined) throw widgetNotFound(widgetConfigId);
      refuseChrome(placed, body);
      await updatePlacement(tx, {
        userId: user.id,
        widgetConfigId,
        ...(body.collapsed === undefined ? {} : { collapsed: body.collapsed }),
        ...(body.isPinned === undefined ? {} : { pinned: body.isPinned }),
        ...(body.removed === undefined ? {} : { removed: body.removed }),
      });
      await bumpDashboardVersion(tx, { userId: user.id, accountId });
      return dashboardView(tx, user.id, accountId);
    });
    return c.json({ ok: true, data });
  });

  app.post('/accounts/:account/dashboard/reset', async (c) => {
    const { user, accountId } = await writer(services, c);
    const data = await services.db.transaction(async (tx) => {
      await dashboardView(tx, user.id, accountId);
      const integrations = await dashboardIntegrations(tx, accountId);
      await resetPlacements(tx, { userId: user.id, accountId, integrations });
      await bumpDashboardVersion(tx, { userId: user.id, accountId });
      return dashboardView(tx, user.id, accountId);
    });
    return c.json({ ok: true, data });
  });

  return app;
}

// The checks every write starts with: Origin, JSON, `publish`, membership.
async function writer(services: HostServices, c: Context): Promise<{ user: User; accountId: string }> {
  checkStateChange(services, c, { requireJson: c.req.method !== 'POST' });
  const user = await requireCliUser(services, c, 'publish');
  const { account } = await memberAccount(services, user, c.req.param('account') ?? '');
  return { user, accountId: account.id };
}

// The user's dashboard as the routes answer it: pinned first, then integration and declaration order.
async function dashboardView(db: Queryable, userId: string, accountId: string): Promise<DashboardResponse> {
  const integrations = await dashboardIntegrations(db, accountId);
  // One statement at a time: `db` is a transaction, one connection.
  const { version, placements } = await ensurePlacements(db, { userId, accountId, integrations });
  const health = await integrationHealth(db, accountId, integrations);
  const bySlugAndWidget = new Map(
    placements.map((placement) => [`${placement.slug}\n${placement.widgetId}`, placement]),
  );
  const widgets: DashboardWidget[] = [];
  const removed: DashboardWidget[] = [];
  for (const integration of integrations) {
    for (const widget of integration.manifest.widgets) {
      const placement = bySlugAndWidget.get(`${integration.slug}\n${widget.id}`);
      if (placement === undefined) continue;
      const view = {
        widgetConfigId: placement.widgetConfigId,
        integration: {
          slug: integration.slug,
          name: integration.name,
          versionId: integration.versionId,
          version: integration.versionNumber,
          publisher: integration.publisher,
        },
        widget: {
          id: widget.id,
          name: widget.name,
          isCollapsible: widget.isCollapsible === true,
          isPinnable: widget.isPinnable === true,
          aiFooterEnabled: widget.aiFooterEnabled === true,
        },
        layout: placement.layout,
        collapsed: placement.collapsed,
        isPinned: placement.pinned,
        health: health.get(integration.slug) ?? { status: 'ok', items: [] },
      } satisfies DashboardWidget;
      (placement.removed ? removed : widgets).push(view);
    }
  }
  // A stable sort: pinned ones first, each group in the order above.
  widgets.sort((a, b) => Number(b.isPinned) - Number(a.isPinned));
  return { version, widgets, removed } satisfies DashboardResponse;
}

// Collapse and pin only where the widget's chrome flags allow them; unsetting is always allowed.
function refuseChrome(
  placed: DashboardWidget,
  body: { collapsed?: boolean | undefined; isPinned?: boolean | undefined },
): void {
  const refuse = (what: string, flag: string) =>
    new RouteError(
      400,
      'invalid_input',
      `Widget "${placed.widget.id}" of ${placed.integration.slug} cannot be ${what}: its definition does not set ${flag}.`,
      { hint: `Check widget.${flag} in GET /api/platform/accounts/<account>/dashboard before offering it.` },
    );
  if (body.collapsed === true && !placed.widget.isCollapsible) throw refuse('collapsed', 'isCollapsible');
  if (body.isPinned === true && !placed.widget.isPinnable) throw refuse('pinned', 'isPinnable');
}

function widgetNotFound(widgetConfigId: string): RouteError {
  return new RouteError(
    404,
    'widget_not_found',
    `No widget "${widgetConfigId}" on your dashboard in this account.`,
    {
      hint: RELOAD_HINT,
    },
  );
}
