import { type ReactNode, useLayoutEffect } from 'react';
import { useWidgetContext, type WidgetHealth } from './_context.js';
import { formatRelativeTime, toDate, useNow } from './_relativeTime.js';

export type { WidgetHealth } from './_context.js';

export interface WidgetHealthFooterProps {
  /** Default: the `health` given to `Widget`. Nothing is shown without one. */
  readonly health?: WidgetHealth;
}

/**
 * A status line under the body: healthy, degraded or failing with the host's message, and one time:
 * when `Widget.DataState`'s data was updated, else when the health was checked. Hidden while the
 * widget is collapsed.
 * @example <Widget.HealthFooter health={{ status: 'degraded', message: 'Acme is slow to answer.' }} />
 */
export function WidgetHealthFooter({ health: own }: WidgetHealthFooterProps): ReactNode {
  const widget = useWidgetContext('Widget.HealthFooter');
  const { setFootered, dataStatus } = widget;
  const health = own ?? widget.health;
  const shown = health !== undefined;
  const updatedAt = toDate(dataStatus?.updatedAt);
  const checkedAt = toDate(health?.checkedAt);
  const at = updatedAt ?? checkedAt;
  const now = useNow(at !== undefined);

  useLayoutEffect(() => {
    if (!shown) return;
    setFootered(true);
    return () => setFootered(false);
  }, [setFootered, shown]);

  if (health === undefined) return null;
  const { labels, locale } = widget;
  const relative = (date: Date) => formatRelativeTime(date, now, locale, labels.justNow);
  return (
    <footer className="plt-widget__health" data-status={health.status} hidden={widget.collapsed}>
      <span role="status" className="plt-widget__health-status">
        <span className="plt-widget__health-dot" aria-hidden="true" />
        <span className="plt-widget__health-text">
          <span className="plt-widget__health-label">{labels[health.status]}</span>
          {health.message === undefined ? null : (
            <span className="plt-widget__health-message">{health.message}</span>
          )}
        </span>
      </span>
      {at === undefined ? null : (
        <time
          className="plt-widget__health-time plt-widget__muted"
          dateTime={at.toISOString()}
          title={
            updatedAt !== undefined && checkedAt !== undefined
              ? `${at.toLocaleString(locale)}; ${labels.checked(relative(checkedAt))}`
              : at.toLocaleString(locale)
          }
        >
          {updatedAt === undefined ? labels.checked(relative(at)) : labels.updated(relative(at))}
        </time>
      )}
    </footer>
  );
}
