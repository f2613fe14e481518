// The dashboard's layout rule, one module for the host (first placements, reset) and the web app
// (the grid's breakpoints): where a definition's widgets go at each breakpoint. Plain TypeScript,
// no Node, no zod.

/** A widget's rectangle on a breakpoint's grid, in columns (x, w) and rows (y, h). */
export interface GridRect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export type Breakpoint = 'lg' | 'md' | 'sm';

/** Largest first: a breakpoint the definition does not give is derived from the one before it. */
export const BREAKPOINT_ORDER: readonly Breakpoint[] = ['lg', 'md', 'sm'];

/** The grid of each breakpoint: its columns and the narrowest viewport (px) it serves. */
export const BREAKPOINTS: Readonly<
  Record<Breakpoint, { readonly columns: number; readonly minWidth: number }>
> = {
  lg: { columns: 12, minWidth: 1200 },
  md: { columns: 8, minWidth: 768 },
  sm: { columns: 1, minWidth: 0 },
};

/** The size a widget the definition gives no rectangle for gets: half the columns (at least 1), 4 rows. */
export const DEFAULT_WIDGET_HEIGHT = 4;

/** One widget's rectangles at the three breakpoints. */
export type WidgetLayout = Readonly<Record<Breakpoint, GridRect>>;

/** What the rule reads of a definition: its widgets in declaration order and its `layouts`. */
export interface LayoutBlock {
  readonly widgets: readonly { readonly id: string }[];
  readonly layouts?: Partial<Record<Breakpoint, Readonly<Record<string, GridRect>> | undefined>> | undefined;
}

/** A widget's placement on the dashboard: which block (integration) and widget, and where. */
export interface PlacedWidget {
  readonly block: number;
  readonly widgetId: string;
  readonly layout: WidgetLayout;
}

/** How far down each breakpoint's grid is already used (the lowest `y + h`). */
export type GridBottoms = Readonly<Record<Breakpoint, number>>;

const NO_BOTTOMS: GridBottoms = { lg: 0, md: 0, sm: 0 };

/**
 * Places one definition's widgets at the three breakpoints, in declaration order:
 * - a rectangle the definition gives is kept, fitted inside the breakpoint's columns (w and h at
 *   least 1, w at most the columns, x moved left so the widget ends inside);
 * - a breakpoint the definition does not give is derived from the next larger one: md from lg
 *   (the left and right edges scaled by 8/12 and rounded, so x and w scale and neighbours do not
 *   overlap; at least 1 column, kept inside 8), sm from md (stacked in (y, x) order,
 *   w 1, h kept); lg, the largest, has nothing to derive from;
 * - a widget without a rectangle at a breakpoint the definition gives (or at lg when it gives
 *   none) goes after the others: below the lowest, left to right in declaration order at half the
 *   columns and {@link DEFAULT_WIDGET_HEIGHT} rows.
 * @example placeWidgets({ widgets: [{ id: 'board' }], layouts: { lg: { board: { x: 0, y: 0, w: 8, h: 6 } } } })
 */
export function placeWidgets(block: LayoutBlock): Map<string, WidgetLayout> {
  const ids = block.widgets.map((widget) => widget.id);
  const placed: Partial<Record<Breakpoint, Map<string, GridRect>>> = {};
  let larger: Map<string, GridRect> | undefined;
  for (const breakpoint of BREAKPOINT_ORDER) {
    const given = block.layouts?.[breakpoint];
    const rects =
      given === undefined && larger !== undefined
        ? derive(breakpoint, ids, larger)
        : fromGiven(breakpoint, ids, given ?? {});
    placed[breakpoint] = rects;
    larger = rects;
  }
  const result = new Map<string, WidgetLayout>();
  for (const id of ids) {
    result.set(id, { lg: placed.lg!.get(id)!, md: placed.md!.get(id)!, sm: placed.sm!.get(id)! });
  }
  return result;
}

/**
 * Places the widgets of several definitions (a dashboard's integrations) in order: each block is
 * placed by {@link placeWidgets}, moved up to start at its own top row, and put below the previous
 * blocks (and below `below`, what the grid already holds) at every breakpoint.
 * @example placeDashboard([notes, crm]) // crm's widgets start under the lowest of notes'
 */
export function placeDashboard(
  blocks: readonly LayoutBlock[],
  below: GridBottoms = NO_BOTTOMS,
): PlacedWidget[] {
  const bottoms = { ...below };
  const placed: PlacedWidget[] = [];
  blocks.forEach((block, index) => {
    const layouts = [...placeWidgets(block)];
    const shifted: Record<Breakpoint, number> = { lg: 0, md: 0, sm: 0 };
    for (const breakpoint of BREAKPOINT_ORDER) {
      const top = Math.min(...layouts.map(([, layout]) => layout[breakpoint].y));
      shifted[breakpoint] = layouts.length === 0 ? 0 : bottoms[breakpoint] - top;
    }
    for (const [widgetId, layout] of layouts) {
      const moved = mapBreakpoints((breakpoint) => ({
        ...layout[breakpoint],
        y: layout[breakpoint].y + shifted[breakpoint],
      }));
      placed.push({ block: index, widgetId, layout: moved });
    }
    for (const breakpoint of BREAKPOINT_ORDER) {
      bottoms[breakpoint] = Math.max(
        bottoms[breakpoint],
        ...placed.map((widget) => bottomOf(widget.layout[breakpoint])),
      );
    }
  });
  return placed;
}

/** The lowest row the layouts use at each breakpoint (0 for none), to place more widgets below. */
export function gridBottoms(layouts: Iterable<WidgetLayout>): GridBottoms {
  const bottoms = { ...NO_BOTTOMS };
  for (const layout of layouts) {
    for (const breakpoint of BREAKPOINT_ORDER) {
      bottoms[breakpoint] = Math.max(bottoms[breakpoint], bottomOf(layout[breakpoint]));
    }
  }
  return bottoms;
}

/** Whether a rectangle lies inside a breakpoint's columns (w and h at least 1). */
export function fitsBreakpoint(breakpoint: Breakpoint, rect: GridRect): boolean {
  return rect.w >= 1 && rect.h >= 1 && rect.x + rect.w <= BREAKPOINTS[breakpoint].columns;
}

const bottomOf = (rect: GridRect): number => rect.y + rect.h;

function mapBreakpoints(make: (breakpoint: Breakpoint) => GridRect): WidgetLayout {
  return { lg: make('lg'), md: make('md'), sm: make('sm') };
}

function fit(breakpoint: Breakpoint, rect: GridRect): GridRect {
  const columns = BREAKPOINTS[breakpoint].columns;
  const w = Math.min(Math.max(rect.w, 1), columns);
  return { x: Math.min(rect.x, columns - w), y: rect.y, w, h: Math.max(rect.h, 1) };
}

function fromGiven(
  breakpoint: Breakpoint,
  ids: readonly string[],
  given: Readonly<Record<string, GridRect>>,
): Map<string, GridRect> {
  const rects = new Map<string, GridRect>();
  for (const id of ids) {
    const rect = Object.hasOwn(given, id) ? given[id] : undefined;
    if (rect !== undefined) rects.set(id, fit(breakpoint, rect));
  }
  // The rest after the others: rows below the lowest, filled left to right.
  const columns = BREAKPOINTS[breakpoint].columns;
  const w = Math.max(1, Math.ceil(columns / 2));
  let y = Math.max(0, ...[...rects.values()].map(bottomOf));
  let x = 0;
  for (const id of ids) {
    if (rects.has(id)) continue;
    if (x + w > columns) {
      x = 0;
      y += DEFAULT_WIDGET_HEIGHT;
    }
    rects.set(id, { x, y, w, h: DEFAULT_WIDGET_HEIGHT });
    x += w;
  }
  return rects;
}

function derive(
  breakpoint: Breakpoint,
  ids: readonly string[],
  larger: ReadonlyMap<string, GridRect>,
): Map<string, GridRect> {
  const rects = new Map<string, GridRect>();
  const columns = BREAKPOINTS[breakpoint].columns;
  if (columns === 1) {
    // One column: stacked in the larger grid's reading order, (y, x), then declaration order.
    const order = ids
      .map((id, index) => ({ id, index, rect: larger.get(id)! }))
      .sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x || a.index - b.index);
    let y = 0;
    for (const { id, rect } of order) {
      rects.set(id, { x: 0, y, w: 1, h: rect.h });
      y += rect.h;
    }
    return rects;
  }
  const largerIndex = BREAKPOINT_ORDER.indexOf(breakpoint) - 1;
  const scale = columns / BREAKPOINTS[BREAKPOINT_ORDER[largerIndex]!].columns;
  for (const id of ids) {
    // Both edges scaled and rounded, so widgets side by side stay side by side without overlapping.
    const rect = larger.get(id)!;
    const x = Math.round(rect.x * scale);
    const w = Math.round((rect.x + rect.w) * scale) - x;
    rects.set(id, fit(breakpoint, { x, y: rect.y, w, h: rect.h }));
  }
  return rects;
}
