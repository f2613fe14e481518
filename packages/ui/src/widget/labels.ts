/** Every text the widget chrome shows or announces; `Widget`'s `labels` overrides any of them. */
export interface WidgetLabels {
  readonly menu: string;
  readonly collapse: string;
  readonly expand: string;
  readonly pin: string;
  readonly unpin: string;
  readonly refresh: string;
  readonly loading: string;
  readonly empty: string;
  readonly error: string;
  readonly retry: string;
  /** The last update, as in "Updated 5 minutes ago"; `relative` is already localised. */
  readonly updated: (relative: string) => string;
  readonly justNow: string;
  readonly askAi: string;
  /** Shown on the AI footer where no assistant is wired (the harness, tests). */
  readonly askAiUnavailable: string;
  readonly healthy: string;
  readonly degraded: string;
  readonly failing: string;
  readonly checked: (relative: string) => string;
}

/** The chrome's English texts. */
export const DEFAULT_WIDGET_LABELS: WidgetLabels = {
  menu: 'More actions',
  collapse: 'Collapse',
  expand: 'Expand',
  pin: 'Pin',
  unpin: 'Unpin',
  refresh: 'Refresh',
  loading: 'Loading…',
  empty: 'Nothing to show yet.',
  error: 'This widget couldn’t load its data.',
  retry: 'Try again',
  updated: (relative) => `Updated ${relative}`,
  justNow: 'just now',
  askAi: 'Ask AI about this widget',
  askAiUnavailable: 'The assistant is available on the dashboard.',
  healthy: 'Healthy',
  degraded: 'Degraded',
  failing: 'Failing',
  checked: (relative) => `checked ${relative}`,
};
