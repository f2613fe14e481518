import { faChevronDown, faEllipsisVertical, faThumbtack } from '@fortawesome/free-solid-svg-icons';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { Icon, type IconDefinition } from '../icons/Icon.js';
import { useWidgetContext } from './_context.js';

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
 * The widget's title bar: title (which names the widget's region), optional menu, and the pin and
 * collapse toggles when the chrome flags ask for them.
 * @example <Widget.Header title="Notes" menu={<Widget.MenuItem onSelect={refresh}>Refresh</Widget.MenuItem>} />
 */
export function WidgetHeader({ title, menu, icon, actions, headingLevel = 3 }: WidgetHeaderProps): ReactNode {
  const widget = useWidgetContext('Widget.Header');
  const { labels, setTitled } = widget;
  const Heading = `h${headingLevel}` as const;
  const trigger = useRef<HTMLButtonElement>(null);
  // The menu renders in a portal under <body>; it takes the theme forced around the widget with it.
  const [menuTheme, setMenuTheme] = useState<string | undefined>(undefined);
  const onMenuOpenChange = (open: boolean) => {
    if (!open) return;
    const themed = trigger.current?.closest('[data-platform-theme]');
    setMenuTheme(themed?.getAttribute('data-platform-theme') ?? undefined);
  };

  useLayoutEffect(() => {
    setTitled(true);
    return () => setTitled(false);
  }, [setTitled]);

  return (
    <header className="plt-widget__header">
      {icon === undefined ? null : <Icon icon={icon} className="plt-widget__icon" />}
      <Heading id={widget.titleId} className="plt-widget__title">
        {title}
      </Heading>
      <div className="plt-widget__controls">
        {actions}
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
          <DropdownMenu.Root modal={false} onOpenChange={onMenuOpenChange}>
            <DropdownMenu.Trigger asChild>
              <button
                ref={trigger}
                type="button"
                className="plt-icon-button"
                aria-label={labels.menu}
                title={labels.menu}
              >
                <Icon icon={faEllipsisVertical} />
              </button>
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                className="plt-menu"
                data-platform-theme={menuTheme}
                align="end"
                sideOffset={4}
                loop
              >
                {menu}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
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
