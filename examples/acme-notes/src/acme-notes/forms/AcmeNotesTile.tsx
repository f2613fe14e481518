import type { ReactNode } from 'react';

/**
 * The marketplace tile (`platform.json` `tile`): what Acme Notes offers, drawn by the host in a
 * sandboxed frame on the integration's tile. It fetches nothing.
 */
export default function AcmeNotesTile(): ReactNode {
  return (
    <ul aria-label="What Acme Notes offers">
      <li>A notes board by folder</li>
      <li>Your latest Acme Notes</li>
      <li>A nightly sync once connected</li>
    </ul>
  );
}
