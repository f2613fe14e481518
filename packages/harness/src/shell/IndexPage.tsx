import type { ReactNode } from 'react';
import type { HarnessRegistry } from '../types.js';
import { Link, surfacePath } from './_router.js';

/** `/`: every registry entry with its description and links to its surfaces. */
export function IndexPage({ registry }: { readonly registry: HarnessRegistry }): ReactNode {
  return (
    <>
      <h1>Integrations</h1>
      {registry.length === 0 ? (
        <p>harness.config.ts registers no integrations yet.</p>
      ) : (
        <ul className="harness-index">
          {registry.map((entry) => (
            <li key={entry.slug} className="harness-card">
              <h2>
                <Link href={surfacePath(entry.slug, 'widgets')}>{entry.name}</Link>
              </h2>
              <p>{entry.description}</p>
              <ul className="harness-chips" aria-label={`${entry.name} surfaces`}>
                <li>
                  <Link href={surfacePath(entry.slug, 'widgets')}>Widgets ({entry.widgets.length})</Link>
                </li>
                <li>
                  <Link href={surfacePath(entry.slug, 'tile')}>Marketplace tile</Link>
                </li>
                <li>
                  <Link href={surfacePath(entry.slug, 'activation')}>Activation</Link>
                </li>
                <li>
                  <Link href={surfacePath(entry.slug, 'triggers')}>Triggers</Link>
                </li>
                <li>
                  <Link href={surfacePath(entry.slug, 'tools')}>Tools</Link>
                </li>
              </ul>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
