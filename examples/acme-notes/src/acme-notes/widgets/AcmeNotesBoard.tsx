import { useIntegrationAction } from '@platform/sdk/hooks';
import { Widget } from '@platform/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
// Type only: the handlers stay out of the widget bundle.
import type definition from '../integration.js';
import type { Note } from '../schemas.js';
import { type AcmeNotesWidgetProps, ActionFailure, DEFAULT_ACCOUNT, SLUG } from './shared.js';

/** The react-query key of the account's notes (the `list-notes` action). */
const NOTES_QUERY_KEY = ['acme-notes', 'notes'] as const;

export type AcmeNotesBoardProps = AcmeNotesWidgetProps;

/**
 * The board: the account's notes grouped by folder (one column each, read with `list-notes`), a
 * form that calls `add-note`, and a "Sync now" button that calls `sync-notes`. Render it inside
 * `@platform/ui`'s `<Widget>` (the host and the harness do) with a `QueryClientProvider`.
 * @example <Widget><Widget.Header title="Acme Notes board" /><Widget.Body><AcmeNotesBoard /></Widget.Body></Widget>
 */
export function AcmeNotesBoard({ accountId = DEFAULT_ACCOUNT }: AcmeNotesBoardProps = {}): ReactNode {
  const account = { accountId };
  const queryClient = useQueryClient();
  const listNotes = useIntegrationAction<typeof definition, 'list-notes'>(SLUG, 'list-notes', account);
  const addNote = useIntegrationAction<typeof definition, 'add-note'>(SLUG, 'add-note', account);
  const syncNotes = useIntegrationAction<typeof definition, 'sync-notes'>(SLUG, 'sync-notes', account);
  const notes = useQuery({
    queryKey: NOTES_QUERY_KEY,
    queryFn: () => listNotes.mutateAsync({ limit: 100 }),
  });
  const refreshNotes = () => queryClient.invalidateQueries({ queryKey: NOTES_QUERY_KEY });

  const ids = useId();
  const [title, setTitle] = useState('');
  const [folder, setFolder] = useState('');
  const onAdd = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    syncNotes.reset();
    const trimmedFolder = folder.trim();
    addNote.mutate(
      { title, ...(trimmedFolder === '' ? {} : { folder: trimmedFolder }) },
      {
        onSuccess: () => {
          setTitle('');
          setFolder('');
          void refreshNotes();
        },
      },
    );
  };
  const onSync = () => {
    addNote.reset();
    syncNotes.mutate({}, { onSuccess: () => void refreshNotes() });
  };

  const synced = syncNotes.data?.synced;
  return (
    <div className="acme-notes-board">
      <form className="acme-notes-board__form" aria-label="Add a note" onSubmit={onAdd}>
        <label htmlFor={`${ids}title`}>Title</label>
        <input
          id={`${ids}title`}
          name="title"
          autoComplete="off"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
        />
        <label htmlFor={`${ids}folder`}>Folder</label>
        <input
          id={`${ids}folder`}
          name="folder"
          autoComplete="off"
          aria-describedby={`${ids}folder-hint`}
          value={folder}
          onChange={(event) => setFolder(event.target.value)}
        />
        <span id={`${ids}folder-hint`}>Optional; empty uses the account’s default folder.</span>
        <button type="submit" className="plt-button plt-button--primary" disabled={addNote.isPending}>
          Add note
        </button>
      </form>
      <button type="button" className="plt-button" onClick={onSync} disabled={syncNotes.isPending}>
        Sync now
      </button>

      <div role="status" className="acme-notes-board__status">
        {addNote.data === undefined ? null : (
          <p>
            Added “{addNote.data.title}” to {addNote.data.folder}.
          </p>
        )}
        {synced === undefined ? null : <p>{`Synced ${synced} ${synced === 1 ? 'note' : 'notes'}`}</p>}
      </div>
      <ActionFailure summary="Could not add the note" error={addNote.error} />
      <ActionFailure summary="Could not sync Acme Notes" error={syncNotes.error} />

      {notes.error === null ? (
        <Widget.DataState
          data={notes.data}
          loading={notes.isPending}
          onRefresh={() => void notes.refetch()}
          refreshing={notes.isFetching && !notes.isPending}
          {...(notes.dataUpdatedAt === 0 ? {} : { updatedAt: notes.dataUpdatedAt })}
          empty={<p>No notes yet. Add one, or sync Acme Notes.</p>}
        >
          {(list) => <FolderColumns notes={list} />}
        </Widget.DataState>
      ) : (
        <>
          <ActionFailure summary="Could not load the notes" error={notes.error} />
          <button type="button" className="plt-button" onClick={() => void notes.refetch()}>
            Try again
          </button>
        </>
      )}
    </div>
  );
}

function FolderColumns({ notes }: { readonly notes: readonly Note[] }): ReactNode {
  const folders = new Map<string, Note[]>();
  for (const note of notes) folders.set(note.folder, [...(folders.get(note.folder) ?? []), note]);
  return (
    <div className="acme-notes-board__columns">
      {[...folders].map(([folder, inFolder]) => (
        <div key={folder} className="acme-notes-board__column">
          <h4>{`${folder} (${inFolder.length})`}</h4>
          <ul>
            {inFolder.map((note) => (
              <li key={note.id}>
                {note.title}
                <span className="plt-widget__muted">
                  {note.origin === 'acme' ? ' (from Acme Notes)' : ' (added here)'}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
