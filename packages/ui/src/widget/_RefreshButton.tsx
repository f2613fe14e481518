import { faRotateRight } from '@fortawesome/free-solid-svg-icons';
import type { ReactNode } from 'react';
import { Icon } from '../icons/Icon.js';

/**
 * Refresh, busy while `refreshing`: marked `aria-disabled`/`aria-busy` and deaf to presses, never
 * `disabled`, because a disabled button drops keyboard focus to <body>.
 */
export function RefreshButton({
  label,
  title = label,
  refreshing,
  onRefresh,
}: {
  readonly label: string;
  readonly title?: string;
  readonly refreshing: boolean;
  readonly onRefresh: () => void;
}): ReactNode {
  return (
    <button
      type="button"
      className="plt-icon-button"
      aria-label={label}
      title={title}
      aria-disabled={refreshing}
      aria-busy={refreshing}
      onClick={refreshing ? undefined : onRefresh}
    >
      <Icon icon={faRotateRight} spin={refreshing} />
    </button>
  );
}
