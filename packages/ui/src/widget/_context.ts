import { createContext, useContext } from 'react';
import type { WidgetLabels } from './labels.js';
import type { WidgetHealth } from './WidgetHealthFooter.js';

export interface WidgetContextValue {
  readonly titleId: string;
  readonly bodyId: string;
  readonly labels: WidgetLabels;
  readonly locale: string;
  readonly isCollapsible: boolean;
  readonly collapsed: boolean;
  readonly setCollapsed: (collapsed: boolean) => void;
  readonly isPinnable: boolean;
  readonly pinned: boolean;
  readonly setPinned: (pinned: boolean) => void;
  readonly health: WidgetHealth | undefined;
  readonly setTitled: (titled: boolean) => void;
}

export const WidgetContext = createContext<WidgetContextValue | null>(null);

export function useWidgetContext(component: string): WidgetContextValue {
  const context = useContext(WidgetContext);
  if (context === null) {
    throw new Error(
      `<${component}> must be rendered inside <Widget>; wrap it as <Widget><${component} … /></Widget>.`,
    );
  }
  return context;
}
