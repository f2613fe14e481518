import type { ReactNode } from 'react';
import { navigate, surfacePath } from './_router.js';
import { useEntryPage } from './_shellContext.js';
import { ErrorBoundary } from './ErrorBoundary.js';

/** `/<slug>/tile`: the marketplace tile with the props the marketplace gives it. */
export function TileSurface(): ReactNode {
  const { entry, activation } = useEntryPage();
  const Tile = entry.tile;
  if (Tile === undefined) {
    return <p role="status">No marketplace tile is registered for {entry.name}.</p>;
  }
  return (
    <>
      <p className="harness-muted">
        {activation.activated ? 'Shown as activated.' : 'Shown as not activated.'} Activating opens the
        Activation surface.
      </p>
      <div className="harness-tile harness-partner">
        <ErrorBoundary what="The marketplace tile failed to render.">
          <Tile
            slug={entry.slug}
            name={entry.name}
            description={entry.description}
            isActivated={activation.activated}
            onActivate={() => navigate(surfacePath(entry.slug, 'activation'))}
          />
        </ErrorBoundary>
      </div>
    </>
  );
}
