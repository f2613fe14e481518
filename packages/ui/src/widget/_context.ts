import { createContext, useContext } from 'react';
import type { Moment } from './_relativeTime.js';
import type { WidgetLabels } from './labels.js';

/** The health the host resolves for a widget's integration. */
export interface WidgetHealth {
  readonly status: 'healthy' | 'degraded' | 'failing';
  /** What is wrong, in words a user can act on. */
  readonly message?: string;
  readonly checkedAt?: Moment;
}

/** What `Widget.DataState` hands the chrome: the header shows Refresh, the footer the last update. */
export interface WidgetDataStatus {
  readonly onRefresh: (() => void) | undefined;
  readonly refreshing: boolean;
  readonly updatedAt: Moment | undefined;
}

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
  /** Whether a `Widget.Header` is mounted (it names the region and hosts the Refresh button). */
  readonly titled: boolean;
  readonly setTitled: (titled: boolean) => void;
  /** Whether a `Widget.HealthFooter` is showing (it then shows the data's last update). */
  readonly footered: boolean;
  readonly setFootered: (footered: boolean) => void;
  readonly dataStatus: WidgetDataStatus | undefined;
  readonly setDataStatus: (status: WidgetDataStatus | undefined) => void;
  /** The widget's element: the menu renders into it, so it stays inside the widget's landmark. */
  readonly root: HTMLElement | null;
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
