import type { ReactNode } from 'react';

/**
 * A listing's icon (a bare name of the free icon set) as the host draws it at
 * `/web/icons/<name>.svg`; decorative, since the name beside it says what it is. Nothing without one.
 */
export function ListingIcon(props: { name: string | null }): ReactNode {
  if (props.name === null) return null;
  return (
    <img
      className="app-listing-icon"
      src={`/web/icons/${encodeURIComponent(props.name)}.svg`}
      alt=""
      width={20}
      height={20}
    />
  );
}
