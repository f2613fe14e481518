import type { ReactNode } from 'react';
import { useWidgetContext } from './_context.js';
import { formatRelativeTime, type Moment, toDate, useNow } from './_relativeTime.js';

/** The health the host resolves for a widget's integration. */
export interface WidgetHealth {
  readonly status: 'healthy' | 'degraded' | 'failing';
  /** What is wrong, in words a user can act on. */
  readonly message?: string;
  readonly checkedAt?: Moment;
}

export interface WidgetHealthFooterProps {
  /** Default: the `health` given to `Widget`. Nothing is shown without one. */
  readonly health?: WidgetHealth;
}

/**
 * A status line under the body: healthy, degraded or failing, with the host's message and when it
 * was checked. Hidden while the widget is collapsed.
 * @example <Widget.HealthFooter health={{ status: 'degraded', message: 'Acme is slow to answer.' }} />
 */
export function WidgetHealthFooter({ health: own }: WidgetHealthFooterProps): ReactNode {
  const widget = useWidgetContext('Widget.HealthFooter');
  const health = own ?? widget.health;
  const checkedAt = toDate(health?.checkedAt);
  const now = useNow(checkedAt !== undefined);
  if (health === undefined) return null;
  const { labels } = widget;
  return (
    <footer className="plt-widget__health" data-status={health.status} hidden={widget.collapsed}>
      <span role="status" className="plt-widget__health-status">
        <span className="plt-widget__health-dot" aria-hidden="true" />
        {labels[health.status]}
        {health.message === undefined ? null : (
          <span className="plt-widget__health-message">{health.message}</span>
        )}
      </span>
      {checkedAt === undefined ? null : (
        <time
          className="plt-widget__muted"
          dateTime={checkedAt.toISOString()}
          title={checkedAt.toLocaleString(widget.locale)}
        >
          {labels.checked(formatRelativeTime(checkedAt, now, widget.locale, labels.justNow))}
        </time>
      )}
    </footer>
  );
}
