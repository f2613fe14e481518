import type { ReactNode } from 'react';

/**
 * The one loading pattern of the kit: two placeholder lines, with `label` for assistive technology.
 * It is its own live region unless `announced` says a region around it already announces it.
 */
export function Skeleton({
  label,
  announced = false,
}: {
  readonly label: string;
  readonly announced?: boolean;
}): ReactNode {
  return (
    <div role={announced ? undefined : 'status'} className="plt-state plt-state--loading">
      <span className="plt-skeleton" aria-hidden="true" />
      <span className="plt-skeleton plt-skeleton--short" aria-hidden="true" />
      <span className="plt-visually-hidden">{label}</span>
    </div>
  );
}
