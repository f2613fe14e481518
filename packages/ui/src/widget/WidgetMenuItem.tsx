import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';
import { Icon, type IconDefinition } from '../icons/Icon.js';

export interface WidgetMenuItemProps {
  readonly children: ReactNode;
  /** Runs when the item is chosen by pointer or keyboard (Enter or Space); the menu then closes. */
  readonly onSelect: () => void;
  readonly disabled?: boolean;
  readonly icon?: IconDefinition;
  /** Styles the item as destructive (for example "Disconnect"). */
  readonly destructive?: boolean;
}

/**
 * One entry of `Widget.Header`'s menu.
 * @example <Widget.MenuItem icon={faArrowUpRightFromSquare} onSelect={openAcme}>Open in Acme</Widget.MenuItem>
 */
export function WidgetMenuItem({
  children,
  onSelect,
  disabled,
  icon,
  destructive,
}: WidgetMenuItemProps): ReactNode {
  return (
    <DropdownMenu.Item
      className={destructive ? 'plt-menu__item plt-menu__item--destructive' : 'plt-menu__item'}
      onSelect={onSelect}
      disabled={disabled ?? false}
    >
      {icon === undefined ? null : <Icon icon={icon} />}
      {children}
    </DropdownMenu.Item>
  );
}
