import type { Note } from '../schemas.js';
import { h, type UiElement } from './h.js';

export interface AcmeNotesBoardProps {
  /** The account's notes (`cache/notes`); the dashboard fills it from the storage route. */
  readonly notes?: readonly Note[];
}

/**
 * The board: notes grouped by folder, each folder a column.
 * @example AcmeNotesBoard({ notes })
 */
export function AcmeNotesBoard({ notes = [] }: AcmeNotesBoardProps = {}): UiElement {
  if (notes.length === 0) {
    return h(
      'section',
      { className: 'acme-notes-board', 'data-state': 'empty' },
      'No notes yet. Add one, or sync Acme Notes.',
    );
  }
  const folders = new Map<string, Note[]>();
  for (const note of notes) folders.set(note.folder, [...(folders.get(note.folder) ?? []), note]);
  return h(
    'section',
    { className: 'acme-notes-board' },
    [...folders].map(([folder, inFolder]) =>
      h(
        'div',
        { key: folder, className: 'acme-notes-board__column' },
        h('h3', null, `${folder} (${inFolder.length})`),
        h(
          'ul',
          null,
          inFolder.map((note) => h('li', { key: note.id, title: note.body }, note.title)),
        ),
      ),
    ),
  );
}
