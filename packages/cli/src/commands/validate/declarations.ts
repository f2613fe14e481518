// Reads declarations out of a loaded definition defensively: it is partner code's value and may
// be partly invalid (the schema findings say how); the cross-integration checks use what is there.

/** A widget as far as the cross-integration checks need it. */
export interface WidgetLike {
  readonly id: string;
  readonly icon?: string;
  /** Its index in `components.widgets`. */
  readonly index: number;
}

/** A tool as far as the cross-integration checks need it. */
export interface ToolLike {
  readonly name: string;
  /** Its index in `tools`. */
  readonly index: number;
}

/** The widgets of a definition that have a string `id`. */
export function widgetsOf(definition: unknown): WidgetLike[] {
  const widgets = (definition as { components?: { widgets?: unknown } } | undefined)?.components?.widgets;
  if (!Array.isArray(widgets)) return [];
  return widgets.flatMap((widget: unknown, index) => {
    const { id, icon } = (widget ?? {}) as { id?: unknown; icon?: unknown };
    if (typeof id !== 'string') return [];
    return [typeof icon === 'string' ? { id, icon, index } : { id, index }];
  });
}

/** The tools of a definition that have a string `name`. */
export function toolsOf(definition: unknown): ToolLike[] {
  const tools = (definition as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown, index) => {
    const name = (tool as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? [{ name, index }] : [];
  });
}
