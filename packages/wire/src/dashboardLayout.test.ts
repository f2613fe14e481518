import { describe, expect, it } from 'vitest';
import {
  BREAKPOINTS,
  fitsBreakpoint,
  gridBottoms,
  placeDashboard,
  placeWidgets,
  type WidgetLayout,
} from './dashboardLayout.js';

const widgets = (...ids: string[]) => ids.map((id) => ({ id }));

describe('placeWidgets', () => {
  it('keeps the rectangles each breakpoint the definition gives', () => {
    const placed = placeWidgets({
      widgets: widgets('a', 'b'),
      layouts: {
        lg: { a: { x: 0, y: 0, w: 8, h: 6 }, b: { x: 8, y: 0, w: 4, h: 6 } },
        md: { a: { x: 0, y: 0, w: 8, h: 6 }, b: { x: 0, y: 6, w: 8, h: 3 } },
        sm: { a: { x: 0, y: 3, w: 1, h: 5 }, b: { x: 0, y: 0, w: 1, h: 3 } },
      },
    });
    expect(placed.get('a')).toEqual({
      lg: { x: 0, y: 0, w: 8, h: 6 },
      md: { x: 0, y: 0, w: 8, h: 6 },
      sm: { x: 0, y: 3, w: 1, h: 5 },
    });
    expect(placed.get('b')?.md).toEqual({ x: 0, y: 6, w: 8, h: 3 });
  });

  it('derives md from lg by scaling x and w by 8/12, neighbours side by side without overlap', () => {
    const placed = placeWidgets({
      widgets: widgets('a', 'b', 'c'),
      layouts: {
        lg: { a: { x: 0, y: 0, w: 8, h: 6 }, b: { x: 8, y: 0, w: 4, h: 6 }, c: { x: 1, y: 6, w: 1, h: 2 } },
      },
    });
    expect(placed.get('a')?.md).toEqual({ x: 0, y: 0, w: 5, h: 6 });
    expect(placed.get('b')?.md).toEqual({ x: 5, y: 0, w: 3, h: 6 });
    // 1..2 of 12 is 0.67..1.33 of 8: rounded to 1..1, kept one column wide.
    expect(placed.get('c')?.md).toEqual({ x: 1, y: 6, w: 1, h: 2 });
    const row = [placed.get('a')!.md, placed.get('b')!.md];
    expect(row[0]!.x + row[0]!.w).toBeLessThanOrEqual(row[1]!.x);
  });

  it('keeps a derived md widget inside 8 columns', () => {
    const placed = placeWidgets({
      widgets: widgets('wide'),
      layouts: { lg: { wide: { x: 0, y: 0, w: 12, h: 2 } } },
    });
    expect(placed.get('wide')?.md).toEqual({ x: 0, y: 0, w: 8, h: 2 });
    for (const layout of placed.values()) expect(fitsBreakpoint('md', layout.md)).toBe(true);
  });

  it('derives sm from md: stacked in (y, x) order, one column wide, heights kept', () => {
    const placed = placeWidgets({
      widgets: widgets('below', 'right', 'left'),
      layouts: {
        md: {
          below: { x: 0, y: 6, w: 8, h: 2 },
          right: { x: 4, y: 0, w: 4, h: 3 },
          left: { x: 0, y: 0, w: 4, h: 5 },
        },
      },
    });
    expect(placed.get('left')?.sm).toEqual({ x: 0, y: 0, w: 1, h: 5 });
    expect(placed.get('right')?.sm).toEqual({ x: 0, y: 5, w: 1, h: 3 });
    expect(placed.get('below')?.sm).toEqual({ x: 0, y: 8, w: 1, h: 2 });
  });

  it('derives sm through a derived md when only lg is given (the lg order)', () => {
    const placed = placeWidgets({
      widgets: widgets('board', 'recent'),
      layouts: { lg: { board: { x: 0, y: 0, w: 8, h: 6 }, recent: { x: 8, y: 0, w: 4, h: 6 } } },
    });
    expect(placed.get('board')?.sm).toEqual({ x: 0, y: 0, w: 1, h: 6 });
    expect(placed.get('recent')?.sm).toEqual({ x: 0, y: 6, w: 1, h: 6 });
  });

  it('puts a widget without a layout after the others, below the lowest', () => {
    const placed = placeWidgets({
      widgets: widgets('loose', 'placed', 'other'),
      layouts: { lg: { placed: { x: 0, y: 2, w: 6, h: 3 } } },
    });
    expect(placed.get('placed')?.lg).toEqual({ x: 0, y: 2, w: 6, h: 3 });
    // Below y + h = 5, half the columns each, left to right in declaration order.
    expect(placed.get('loose')?.lg).toEqual({ x: 0, y: 5, w: 6, h: 4 });
    expect(placed.get('other')?.lg).toEqual({ x: 6, y: 5, w: 6, h: 4 });
    // And at md, derived from that lg.
    expect(placed.get('other')?.md).toEqual({ x: 4, y: 5, w: 4, h: 4 });
  });

  it('places every widget when the definition gives no layouts, and at a given breakpoint that misses one', () => {
    const none = placeWidgets({ widgets: widgets('a', 'b', 'c') });
    expect([...none.values()].map((layout) => layout.lg)).toEqual([
      { x: 0, y: 0, w: 6, h: 4 },
      { x: 6, y: 0, w: 6, h: 4 },
      { x: 0, y: 4, w: 6, h: 4 },
    ]);
    const partialSm = placeWidgets({
      widgets: widgets('a', 'b'),
      layouts: { sm: { a: { x: 0, y: 0, w: 1, h: 2 } } },
    });
    expect(partialSm.get('b')?.sm).toEqual({ x: 0, y: 2, w: 1, h: 4 });
  });

  it('fits a given rectangle inside the columns (w and h at least 1, x moved left)', () => {
    const placed = placeWidgets({
      widgets: widgets('a', 'b'),
      layouts: {
        lg: { a: { x: 10, y: 0, w: 6, h: 0 }, b: { x: 0, y: 0, w: 0, h: 2 } },
        sm: { a: { x: 3, y: 0, w: 2, h: 1 } },
      },
    });
    expect(placed.get('a')?.lg).toEqual({ x: 6, y: 0, w: 6, h: 1 });
    expect(placed.get('b')?.lg).toEqual({ x: 0, y: 0, w: 1, h: 2 });
    expect(placed.get('a')?.sm).toEqual({ x: 0, y: 0, w: 1, h: 1 });
  });

  it('ignores a layout entry for a widget the block does not list', () => {
    const placed = placeWidgets({
      widgets: widgets('a'),
      layouts: { lg: { gone: { x: 0, y: 0, w: 12, h: 9 } } },
    });
    expect([...placed.keys()]).toEqual(['a']);
    expect(placed.get('a')?.lg).toEqual({ x: 0, y: 0, w: 6, h: 4 });
  });
});

describe('placeDashboard', () => {
  const notes = {
    widgets: widgets('board', 'recent'),
    layouts: { lg: { board: { x: 0, y: 0, w: 8, h: 6 }, recent: { x: 8, y: 0, w: 4, h: 6 } } },
  };
  const crm = { widgets: widgets('deals'), layouts: { lg: { deals: { x: 2, y: 3, w: 4, h: 2 } } } };

  it("puts each integration's block below the previous one's, at every breakpoint, in order", () => {
    const placed = placeDashboard([notes, crm]);
    expect(placed.map((widget) => [widget.block, widget.widgetId])).toEqual([
      [0, 'board'],
      [0, 'recent'],
      [1, 'deals'],
    ]);
    const deals = placed[2]!.layout;
    // Moved up to its own top (y 3 -> 0), then below notes' lowest (6 at lg and md, 12 at sm).
    expect(deals.lg).toEqual({ x: 2, y: 6, w: 4, h: 2 });
    expect(deals.md).toEqual({ x: 1, y: 6, w: 3, h: 2 });
    expect(deals.sm).toEqual({ x: 0, y: 12, w: 1, h: 2 });
  });

  it('starts below what the grid already holds', () => {
    const held: WidgetLayout = {
      lg: { x: 0, y: 0, w: 3, h: 10 },
      md: { x: 0, y: 0, w: 3, h: 7 },
      sm: { x: 0, y: 0, w: 1, h: 20 },
    };
    const placed = placeDashboard([crm], gridBottoms([held]));
    expect(placed[0]!.layout.lg.y).toBe(10);
    expect(placed[0]!.layout.md.y).toBe(7);
    expect(placed[0]!.layout.sm.y).toBe(20);
  });

  it('skips a block without widgets', () => {
    const placed = placeDashboard([{ widgets: [] }, crm]);
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({ block: 1, layout: { lg: { y: 0 } } });
  });
});

describe('the breakpoints', () => {
  it('are 12 columns from 1200 px, 8 from 768 px, 1 below', () => {
    expect(BREAKPOINTS).toEqual({
      lg: { columns: 12, minWidth: 1200 },
      md: { columns: 8, minWidth: 768 },
      sm: { columns: 1, minWidth: 0 },
    });
    expect(fitsBreakpoint('md', { x: 4, y: 0, w: 5, h: 1 })).toBe(false);
    expect(fitsBreakpoint('lg', { x: 0, y: 0, w: 12, h: 0 })).toBe(false);
  });
});
