import { faChevronDown, faThumbtack } from '@fortawesome/free-solid-svg-icons';
import { type ReactNode, useLayoutEffect } from 'react';
import { Icon, type IconDefinition } from '../icons/Icon.js';
import { useWidgetContext } from './_context.js';
import { RefreshButton } from './_RefreshButton.js';
import { formatRelativeTime, toDate, useNow } from './_relativeTime.js';
import { WidgetMenu } from './_WidgetMenu.js';

export interface WidgetHeaderProps {
  readonly title: ReactNode;
  /** `Widget.MenuItem`s, shown in a keyboard-operable menu behind a "More actions" button. */
  readonly menu?: ReactNode;
  readonly icon?: IconDefinition;
  /** Extra controls shown before the chrome's own buttons. */
  readonly actions?: ReactNode;
  /** The title's heading level in the page's outline. Default 3. */
  readonly headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/**
 * The widget's title bar: title (which names the widget's region; a string title that does not fit
 * is cut with an ellipsis and shown whole on hover), the Refresh button of `Widget.DataState`,
 * optional menu, and the pin and collapse toggles when the chrome flags ask for them.
 * @example <Widget.Header title="Notes" menu={<Widget.MenuItem onSelect={refresh}>Refresh</Widget.MenuItem>} />
 */
export function WidgetHeader({ title, menu, icon, actions, headingLevel = 3 }: WidgetHeaderProps): ReactNode {
  const widget = useWidgetContext('Widget.Header');
  const { labels, setTitled, dataStatus } = widget;
  const Heading = `h${headingLevel}` as const;
  const updated = toDate(dataStatus?.updatedAt);
  const now = useNow(updated !== undefined);
  const refreshing = dataStatus?.refreshing ?? false;
  const refreshTitle =
    updated === undefined
      ? labels.refresh
      : `${labels.refresh} (${labels.updated(formatRelativeTime(updated, now, widget.locale, labels.justNow))})`;

  useLayoutEffect(() => {
    setTitled(true);
    return () => setTitled(false);
  }, [setTitled]);

  return (
    <header className="plt-widget__header">
      {icon === undefined ? null : <Icon icon={icon} className="plt-widget__icon" />}
      <Heading
        id={widget.titleId}
        className="plt-widget__title"
        title={typeof title === 'string' ? title : undefined}
      >
        {title}
      </Heading>
      <div className="plt-widget__controls">
        {actions}
        {dataStatus?.onRefresh === undefined ? null : (
          <RefreshButton
            label={labels.refresh}
            title={refreshTitle}
            refreshing={refreshing}
            onRefresh={dataStatus.onRefresh}
          />
        )}
        {widget.isPinnable ? (
          <button
            type="button"
            className="plt-icon-button"
            aria-pressed={widget.pinned}
            aria-label={widget.pinned ? labels.unpin : labels.pin}
            title={widget.pinned ? labels.unpin : labels.pin}
            onClick={() => widget.setPinned(!widget.pinned)}
          >
            <Icon icon={faThumbtack} />
          </button>
        ) : null}
        {menu === undefined || menu === null ? null : (
          <WidgetMenu label={labels.menu} container={widget.root}>
            {menu}
          </WidgetMenu>
        )}
        {widget.isCollapsible ? (
          <button
            type="button"
            className="plt-icon-button plt-widget__collapse"
            aria-expanded={!widget.collapsed}
            aria-controls={widget.bodyId}
            aria-label={widget.collapsed ? labels.expand : labels.collapse}
            title={widget.collapsed ? labels.expand : labels.collapse}
            onClick={() => widget.setCollapsed(!widget.collapsed)}
          >
            <Icon icon={faChevronDown} />
          </button>
        ) : null}
      </div>
    </header>
  );
}
