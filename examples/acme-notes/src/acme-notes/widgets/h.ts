/** A rendered element as plain data: what a widget returns until `@platform/ui` (React) lands. */
export interface UiElement {
  readonly type: string;
  readonly props: Readonly<Record<string, unknown>>;
  readonly children: readonly UiNode[];
}
export type UiNode = UiElement | string | number;

/**
 * Builds one element, in the shape of `React.createElement`, so moving a widget to React later is
 * a change of import. `false`, `null` and `undefined` children are dropped, as React does.
 * @example h('li', { key: note.id }, note.title)
 */
export function h(
  type: string,
  props: Readonly<Record<string, unknown>> | null,
  ...children: readonly (UiNode | readonly UiNode[] | false | null | undefined)[]
): UiElement {
  const flat = children.flat().filter((child): child is UiNode => child !== false && child != null);
  return { type, props: props ?? {}, children: flat };
}
