import type { Note } from '../schemas.js';
import { h, type UiElement } from './h.js';

export interface AcmeNotesRecentProps {
  readonly notes?: readonly Note[];
  /** How many to show. */
  readonly limit?: number;
}

/**
 * The most recent notes, newest first, with where each came from.
 * @example AcmeNotesRecent({ notes, limit: 3 })
 */
export function AcmeNotesRecent({ notes = [], limit = 5 }: AcmeNotesRecentProps = {}): UiElement {
  const recent = [...notes].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
  return h(
    'section',
    { className: 'acme-notes-recent' },
    h('h3', null, 'Recent notes'),
    recent.length === 0
      ? h('p', null, 'Nothing yet.')
      : h(
          'ol',
          null,
          recent.map((note) =>
            h(
              'li',
              { key: note.id },
              note.title,
              h('small', null, note.origin === 'acme' ? ' (Acme Notes)' : ' (added here)'),
            ),
          ),
        ),
  );
}
