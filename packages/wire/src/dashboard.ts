import { z } from 'zod';

// The dashboard's routes under /api/platform/accounts/:account/dashboard. Where widgets go by
// default is dashboardLayout.ts's rule; these are the shapes only.

/** A widget's rectangle on one breakpoint's grid (columns and rows; w and h at least 1). */
export const gridRectSchema = z.strictObject({
  x: z.int().nonnegative(),
  y: z.int().nonnegative(),
  w: z.int().positive(),
  h: z.int().positive(),
});

/** A placement's rectangles at the three breakpoints (lg 12 columns, md 8, sm 1). */
export const widgetLayoutSchema = z.object({ lg: gridRectSchema, md: gridRectSchema, sm: gridRectSchema });

/** One thing that needs the account's attention about an integration. */
export const healthItemSchema = z.object({
  kind: z.enum(['oauth', 'action', 'delivery', 'schedule']),
  message: z.string(),
  /** When it happened (ISO 8601); absent for a state (not connected). */
  at: z.string().optional(),
});
export type HealthItem = z.output<typeof healthItemSchema>;

/** An integration's health in the account: `error` when a run failed, `attention` when the account must act. */
export const widgetHealthSchema = z.object({
  status: z.enum(['ok', 'attention', 'error']),
  items: z.array(healthItemSchema),
});
export type WidgetHealth = z.output<typeof widgetHealthSchema>;

/** One placement of a widget on a user's dashboard, with what the host page draws around it. */
export const dashboardWidgetSchema = z.object({
  /** Stable for the (user, account, integration, widget) placement. */
  widgetConfigId: z.string(),
  integration: z.object({
    slug: z.string(),
    name: z.string(),
    /** The live version's id (its widgets' frames are `/web/frames/<versionId>/<widgetId>`). */
    versionId: z.string(),
    version: z.number().int(),
    /** The source that publishes it (its name). */
    publisher: z.string(),
  }),
  widget: z.object({
    id: z.string(),
    name: z.string(),
    isCollapsible: z.boolean(),
    isPinnable: z.boolean(),
    aiFooterEnabled: z.boolean(),
  }),
  layout: widgetLayoutSchema,
  collapsed: z.boolean(),
  isPinned: z.boolean(),
  health: widgetHealthSchema,
});
export type DashboardWidget = z.output<typeof dashboardWidgetSchema>;

/**
 * `data` of `GET /api/platform/accounts/:account/dashboard` and of its writes: the user's
 * placements, pinned first, and the removed ones (to add back); `version` goes with the next layout save.
 */
export const dashboardResponseSchema = z.object({
  version: z.number().int(),
  widgets: z.array(dashboardWidgetSchema),
  removed: z.array(dashboardWidgetSchema),
});
export type DashboardResponse = z.output<typeof dashboardResponseSchema>;

/** Body of `PUT .../dashboard/layout`: moves and resizes, against the `version` they were made on. */
export const dashboardLayoutRequestSchema = z.strictObject({
  version: z.int().positive(),
  layouts: z.record(
    z.string().min(1),
    z.strictObject({
      lg: gridRectSchema.optional(),
      md: gridRectSchema.optional(),
      sm: gridRectSchema.optional(),
    }),
  ),
});
export type DashboardLayoutRequest = z.output<typeof dashboardLayoutRequestSchema>;

/** Body of `PATCH .../dashboard/widgets/:widgetConfigId`: at least one of the three. */
export const dashboardWidgetRequestSchema = z
  .strictObject({
    collapsed: z.boolean().optional(),
    isPinned: z.boolean().optional(),
    removed: z.boolean().optional(),
  })
  .refine(
    (body) => body.collapsed !== undefined || body.isPinned !== undefined || body.removed !== undefined,
    {
      error: 'give at least one of collapsed, isPinned, removed',
    },
  );
export type DashboardWidgetRequest = z.output<typeof dashboardWidgetRequestSchema>;
