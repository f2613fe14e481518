import { useIntegrationFetch } from '@platform/sdk/hooks';
import { Widget } from '@platform/ui';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type VendorNote, VendorNotesPage } from '../schemas.js';
import { API_ORIGIN } from '../syncNotes.js';

// The react-query key of the vendor's notes (not exported: a module that exports only components is a fast-refresh boundary).
const RECENT_QUERY_KEY = ['acme-notes', 'recent'] as const;

export interface AcmeNotesRecentProps {
  /** How many to show. Default 5. */
  readonly limit?: number;
}

/**
 * The most recent notes of the Acme Notes workspace, newest first, fetched from the vendor's
 * `GET /v1/notes` with `useIntegrationFetch()` (the harness answers it from its fixtures; outside
 * any provider it is `globalThis.fetch`). Render it inside `@platform/ui`'s `<Widget>` with a
 * `QueryClientProvider`.
 * @example <Widget><Widget.Header title="Recent notes" /><Widget.Body><AcmeNotesRecent limit={3} /></Widget.Body></Widget>
 */
export function AcmeNotesRecent({ limit = 5 }: AcmeNotesRecentProps = {}): ReactNode {
  const fetch = useIntegrationFetch();
  const recent = useQuery({
    queryKey: RECENT_QUERY_KEY,
    queryFn: async ({ signal }): Promise<VendorNote[]> => {
      const response = await fetch(`${API_ORIGIN}/v1/notes`, {
        headers: { accept: 'application/json' },
        signal,
      });
      if (!response.ok) throw new Error(`Acme Notes answered ${response.status}`);
      const page = VendorNotesPage.safeParse(await response.json());
      if (!page.success) throw new Error('Acme Notes sent a notes page this widget cannot read');
      return page.data.notes;
    },
  });
  return (
    <Widget.DataState
      data={recent.data}
      loading={recent.isPending}
      error={recent.error}
      onRefresh={() => void recent.refetch()}
      refreshing={recent.isFetching && !recent.isPending}
      {...(recent.dataUpdatedAt === 0 ? {} : { updatedAt: recent.dataUpdatedAt })}
      empty={<p>No recent notes.</p>}
    >
      {(notes) => (
        <ol className="acme-notes-recent" aria-label="Most recent notes">
          {[...notes]
            .sort((a, b) => b.created_at.localeCompare(a.created_at))
            .slice(0, limit)
            .map((note) => (
              <li key={note.id}>
                {note.title}
                <span className="plt-widget__muted">{` (${note.folder})`}</span>
              </li>
            ))}
        </ol>
      )}
    </Widget.DataState>
  );
}
