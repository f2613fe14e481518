import { dashboardLayoutRequestSchema, dashboardWidgetRequestSchema } from '@platform/wire';
import { describe, expect, it } from 'vitest';

describe('the dashboard request bodies', () => {
  it('takes a layout save of some breakpoints, with whole, positive sizes', () => {
    const body = { version: 2, layouts: { abc: { lg: { x: 0, y: 1, w: 6, h: 4 } } } };
    expect(dashboardLayoutRequestSchema.parse(body)).toEqual(body);
    const zeroWide = { version: 2, layouts: { abc: { md: { x: 0, y: 0, w: 0, h: 4 } } } };
    expect(dashboardLayoutRequestSchema.safeParse(zeroWide).success).toBe(false);
    const unknownBreakpoint = { version: 2, layouts: { abc: { xl: { x: 0, y: 0, w: 1, h: 1 } } } };
    expect(dashboardLayoutRequestSchema.safeParse(unknownBreakpoint).success).toBe(false);
    expect(dashboardLayoutRequestSchema.safeParse({ layouts: {} }).success).toBe(false);
  });

  it('takes a widget change of at least one flag', () => {
    expect(dashboardWidgetRequestSchema.parse({ isPinned: true })).toEqual({ isPinned: true });
    const empty = dashboardWidgetRequestSchema.safeParse({});
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.message).toBe('give at least one of collapsed, isPinned, removed');
    expect(dashboardWidgetRequestSchema.safeParse({ pinned: true }).success).toBe(false);
  });
});
