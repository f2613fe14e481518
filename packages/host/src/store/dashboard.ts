import type { DefinitionManifest } from '@platform/sdk/runtime';
import {
  type GridRect,
  gridBottoms,
  type LayoutBlock,
  placeDashboard,
  type WidgetLayout,
} from '@platform/wire';
import type { Queryable } from '../db/Db.js';
import { newId } from './ids.js';
import { sourceServesAccountSql } from './integrations.js';

// Each user's dashboard in an account (migration 0013): a placement per (user, account,
// integration, widget), made on the first read from the partner's layouts, and a version per
// (user, account) that every change bumps and a layout save must name.

/** An integration on an account's dashboard: activated there, with a live version that reaches it. */
export interface DashboardIntegration {
  readonly slug: string;
  readonly name: string;
  /** The live version's id: its widgets' frames load its browser bundle. */
  readonly versionId: string;
  readonly versionNumber: number;
  readonly publisher: string;
  readonly manifest: DefinitionManifest;
}

/** One user's placement of one widget. */
export interface Placement {
  readonly widgetConfigId: string;
  readonly slug: string;
  readonly widgetId: string;
  readonly layout: WidgetLayout;
  readonly collapsed: boolean;
  readonly pinned: boolean;
  readonly removed: boolean;
}

// Activation order, then slug: the order the integrations' blocks take on a new dashboard.
const INTEGRATIONS_SQL = `
SELECT i.slug, COALESCE(v.listing->>'name', i.name) AS name, v.id AS version_id, v.number, v.manifest, s.name AS publisher
FROM activations a
JOIN integrations i ON i.slug = a.integration_slug
JOIN versions v ON v.id = i.live_version_id
JOIN sources s ON s.id = i.source_id
WHERE a.account_id = $1 AND ${sourceServesAccountSql('i.source_id', 'a.account_id')}
ORDER BY a.activated_at, i.slug`;

/** The integrations of an account's dashboard, in the order their widgets are placed. */
export async function dashboardIntegrations(
  db: Queryable,
  accountId: string,
): Promise<DashboardIntegration[]> {
  const { rows } = await db.query(INTEGRATIONS_SQL, [accountId]);
  return rows.map((row) => ({
    slug: row.slug as string,
    name: (row.name as string | null) || (row.slug as string),
    versionId: row.version_id as string,
    versionNumber: row.number as number,
    publisher: row.publisher as string,
    manifest: row.manifest as DefinitionManifest,
  }));
}

/**
 * The user's placements in the account and the dashboard's version, making what is missing first:
 * the version (1), and a placement for every widget of `integrations` that has none, by
 * `placeDashboard` (the partner's layouts; on a dashboard that already has placements, below them).
 * Safe to run twice at once: each insert yields to one already there.
 */
export async function ensurePlacements(
  db: Queryable,
  input: { userId: string; accountId: string; integrations: readonly DashboardIntegration[] },
): Promise<{ version: number; placements: Placement[] }> {
  const { userId, accountId } = input;
  await db.query(
    'INSERT INTO dashboard_versions (user_id, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [userId, accountId],
  );
  const existing = await readPlacements(db, userId, accountId);
  const have = new Set(existing.map((placement) => `${placement.slug}\n${placement.widgetId}`));
  const missing = input.integrations.map((integration) => ({
    slug: integration.slug,
    block: blockOf(integration, (id) => !have.has(`${integration.slug}\n${id}`)),
  }));
  if (missing.some(({ block }) => block.widgets.length > 0)) {
    const below = gridBottoms(
      existing.filter((placement) => !placement.removed).map((placement) => placement.layout),
    );
    for (const placed of placeDashboard(
      missing.map(({ block }) => block),
      below,
    )) {
      await db.query(
        `INSERT INTO dashboard_placements (widget_config_id, user_id, account_id, integration_slug, widget_id, layout)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb) ON CONFLICT (user_id, account_id, integration_slug, widget_id) DO NOTHING`,
        [
          newId(),
          userId,
          accountId,
          missing[placed.block]!.slug,
          placed.widgetId,
          JSON.stringify(placed.layout),
        ],
      );
    }
  }
  const placements = await readPlacements(db, userId, accountId);
  return { version: await dashboardVersion(db, userId, accountId), placements };
}

/** The dashboard's version for the user in the account (0 before its first read). */
export async function dashboardVersion(db: Queryable, userId: string, accountId: string): Promise<number> {
  const { rows } = await db.query(
    'SELECT version FROM dashboard_versions WHERE user_id = $1 AND account_id = $2',
    [userId, accountId],
  );
  return (rows[0]?.version as number | undefined) ?? 0;
}

/**
 * Bumps the dashboard's version, only from `expected` when given (a layout save): false when the
 * version moved on since (another tab or browser saved first), and nothing may be written then.
 */
export async function bumpDashboardVersion(
  db: Queryable,
  input: { userId: string; accountId: string; expected?: number },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE dashboard_versions SET version = version + 1, updated_at = now()
     WHERE user_id = $1 AND account_id = $2 AND ($3::integer IS NULL OR version = $3)`,
    [input.userId, input.accountId, input.expected ?? null],
  );
  return rowCount > 0;
}

/** Merges the given breakpoints' rectangles into one placement's layout. */
export async function savePlacementLayout(
  db: Queryable,
  input: {
    userId: string;
    widgetConfigId: string;
    layout: { readonly [B in keyof WidgetLayout]?: GridRect | undefined };
  },
): Promise<void> {
  await db.query(
    `UPDATE dashboard_placements SET layout = layout || $3::jsonb, updated_at = now()
     WHERE widget_config_id = $1 AND user_id = $2`,
    [input.widgetConfigId, input.userId, JSON.stringify(input.layout)],
  );
}

/** Sets the given chrome flags of one placement (collapsed, pinned, removed). */
export async function updatePlacement(
  db: Queryable,
  input: { userId: string; widgetConfigId: string; collapsed?: boolean; pinned?: boolean; removed?: boolean },
): Promise<void> {
  await db.query(
    `UPDATE dashboard_placements SET collapsed = COALESCE($3, collapsed), pinned = COALESCE($4, pinned),
       removed = COALESCE($5, removed), updated_at = now()
     WHERE widget_config_id = $1 AND user_id = $2`,
    [
      input.widgetConfigId,
      input.userId,
      input.collapsed ?? null,
      input.pinned ?? null,
      input.removed ?? null,
    ],
  );
}

/**
 * Back to the partner's layouts: every placement of `integrations` gets `placeDashboard`'s
 * rectangles again and is no longer removed (collapse and pin are the user's and stay).
 */
export async function resetPlacements(
  db: Queryable,
  input: { userId: string; accountId: string; integrations: readonly DashboardIntegration[] },
): Promise<void> {
  const placed = placeDashboard(input.integrations.map((integration) => blockOf(integration, () => true)));
  for (const { block, widgetId, layout } of placed) {
    await db.query(
      `UPDATE dashboard_placements SET layout = $5::jsonb, removed = false, updated_at = now()
       WHERE user_id = $1 AND account_id = $2 AND integration_slug = $3 AND widget_id = $4`,
      [input.userId, input.accountId, input.integrations[block]!.slug, widgetId, JSON.stringify(layout)],
    );
  }
}

async function readPlacements(db: Queryable, userId: string, accountId: string): Promise<Placement[]> {
  const { rows } = await db.query(
    `SELECT widget_config_id, integration_slug, widget_id, layout, collapsed, pinned, removed
     FROM dashboard_placements WHERE user_id = $1 AND account_id = $2`,
    [userId, accountId],
  );
  return rows.map((row) => ({
    widgetConfigId: row.widget_config_id as string,
    slug: row.integration_slug as string,
    widgetId: row.widget_id as string,
    layout: row.layout as WidgetLayout,
    collapsed: row.collapsed as boolean,
    pinned: row.pinned as boolean,
    removed: row.removed as boolean,
  }));
}

// What placeDashboard reads of an integration: its widgets (those `keep` says) and its layouts.
function blockOf(integration: DashboardIntegration, keep: (widgetId: string) => boolean): LayoutBlock {
  return {
    widgets: integration.manifest.widgets.filter((widget) => keep(widget.id)),
    layouts: integration.manifest.layouts,
  };
}
