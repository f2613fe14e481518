import type { ReactNode } from 'react';

/**
 * An icon as the Font Awesome packages export it (`faHouse` from `@fortawesome/free-solid-svg-icons`):
 * `icon` is `[width, height, aliases, unicode, svgPathData]`.
 */
export interface IconDefinition {
  readonly prefix: string;
  readonly iconName: string;
  readonly icon: readonly [number, number, readonly (string | number)[], string, string | readonly string[]];
}

export interface IconProps {
  readonly icon: IconDefinition;
  /** Names the icon for assistive technology; without it the icon is decorative and hidden from it. */
  readonly label?: string;
  readonly className?: string;
  /** Rotates continuously (not under `prefers-reduced-motion: reduce`). */
  readonly spin?: boolean;
}

/**
 * An inline SVG icon from the free icon set, sized to the text around it (1em) and coloured with
 * `currentColor`. Needs no icon font and no runtime stylesheet.
 * @example
 * import { faCalendar } from '@fortawesome/free-solid-svg-icons';
 * <Icon icon={faCalendar} label="Due date" />
 */
export function Icon({ icon, label, className, spin = false }: IconProps): ReactNode {
  const [width, height, , , pathData] = icon.icon;
  const paths = typeof pathData === 'string' ? [pathData] : pathData;
  const classes = ['plt-icon', spin ? 'plt-icon--spin' : '', className ?? ''].filter(Boolean).join(' ');
  const common = {
    className: classes,
    viewBox: `0 0 ${width} ${height}`,
    width: '1em',
    height: '1em',
    fill: 'currentColor',
    focusable: 'false' as const,
    'data-icon': icon.iconName,
  };
  const drawn = paths.map((d) => <path key={d} d={d} />);
  if (label === undefined) {
    return (
      <svg {...common} aria-hidden="true">
        {drawn}
      </svg>
    );
  }
  return (
    <svg {...common} role="img" aria-label={label}>
      <title>{label}</title>
      {drawn}
    </svg>
  );
}
