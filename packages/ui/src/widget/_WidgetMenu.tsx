import { faEllipsisVertical } from '@fortawesome/free-solid-svg-icons';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react';
import { Icon } from '../icons/Icon.js';
import { focusNextTabbable } from './_focusNextTabbable.js';

/**
 * The header's "More actions" menu: Radix's dropdown, rendered into the widget (not <body>) so it
 * stays inside the widget's region landmark and theme, closing on Tab the way a menu button should.
 */
export function WidgetMenu({
  label,
  container,
  children,
}: {
  readonly label: string;
  readonly container: HTMLElement | null;
  readonly children: ReactNode;
}): ReactNode {
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  // Radix focuses the item under the pointer, and Chromium shows that focus as keyboard focus after
  // any earlier key press; the ring stays a keyboard thing by tracking which moved last.
  const [pointer, setPointer] = useState(false);
  // Set when Tab closed the menu: focus then moves on from the trigger instead of landing on it.
  const tabbedOut = useRef<1 | -1 | 0>(0);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) setPointer(false);
  };
  // Radix's menu swallows Tab (and loops Shift+Tab). Caught on the way down, before its handlers.
  const onKeyDownCapture = (event: KeyboardEvent) => {
    setPointer(false);
    if (event.key !== 'Tab') return;
    event.preventDefault();
    event.stopPropagation();
    tabbedOut.current = event.shiftKey ? -1 : 1;
    setOpen(false);
  };
  const onCloseAutoFocus = (event: Event) => {
    const direction = tabbedOut.current;
    tabbedOut.current = 0;
    if (direction === 0 || trigger.current === null) return;
    event.preventDefault();
    focusNextTabbable(trigger.current, direction);
  };

  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger asChild>
        <button ref={trigger} type="button" className="plt-icon-button" aria-label={label} title={label}>
          <Icon icon={faEllipsisVertical} />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal container={container}>
        <DropdownMenu.Content
          className="plt-menu"
          data-input={pointer ? 'pointer' : undefined}
          align="end"
          sideOffset={4}
          loop
          onPointerMove={() => setPointer(true)}
          onKeyDownCapture={onKeyDownCapture}
          onCloseAutoFocus={onCloseAutoFocus}
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
