// @vitest-environment happy-dom
// The widgets as the harness renders them: inside `@platform/ui`'s <Widget>, with react-query and an
// IntegrationFetchProvider. The actions route is a small fake server running the real definition
// (`invokeAction` in harness mode, so failures carry `devError`); the vendor API is a handler.
import { ACTION_ERROR_STATUS, invokeAction } from '@platform/sdk/runtime';
import {
  createMockContext,
  createMockFetchProvider,
  type MockContextOptions,
  type MockFetchHandler,
} from '@platform/sdk/testing';
import { Widget } from '@platform/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import definition from './integration.js';
import type { Note } from './schemas.js';
import { API_ORIGIN } from './syncNotes.js';
import { AcmeNotesBoard } from './widgets/AcmeNotesBoard.js';
import { AcmeNotesRecent } from './widgets/AcmeNotesRecent.js';

const VENDOR_NOTES = `GET ${API_ORIGIN}/v1/notes`;

const note = (id: string, title: string, folder: string, createdAt: string): Note => ({
  id,
  title,
  body: '',
  folder,
  createdAt,
  origin: 'local',
});

/** The actions route of the harness server, over one mock context. */
function actionsServer(options: MockContextOptions = {}): MockFetchHandler {
  const ctx = createMockContext(definition, options);
  return {
    match: 'POST /api/integrations/acme-notes/actions/:action',
    respond: async (request) => {
      const action = decodeURIComponent(new URL(request.url).pathname.split('/').pop() ?? '');
      const envelope = await invokeAction(definition, action, await request.text(), ctx, { mode: 'harness' });
      return Response.json(envelope, {
        status: envelope.ok ? 200 : ACTION_ERROR_STATUS[envelope.error.code],
      });
    },
  };
}

function renderWidget(title: string, widget: ReactNode, handlers: MockFetchHandler[]) {
  const mock = createMockFetchProvider({ handlers });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <Widget isCollapsible>
      <Widget.Header title={title} />
      <Widget.Body>
        <QueryClientProvider client={client}>
          <mock.Provider>{widget}</mock.Provider>
        </QueryClientProvider>
      </Widget.Body>
    </Widget>,
  );
  return mock;
}

const renderBoard = (options?: MockContextOptions, extra: MockFetchHandler[] = []) =>
  renderWidget('Acme Notes board', <AcmeNotesBoard accountId="a1" />, [actionsServer(options), ...extra]);

describe('AcmeNotesBoard', () => {
  it('shows the notes grouped by folder, read with list-notes', async () => {
    const mock = renderBoard({
      storage: {
        account: {
          'cache/notes': [
            note('n3', 'Ship it', 'work', '2030-01-03T00:00:00.000Z'),
            note('n2', 'Buy milk', 'home', '2030-01-02T00:00:00.000Z'),
            note('n1', 'Standup', 'work', '2030-01-01T00:00:00.000Z'),
          ],
        },
      },
    });
    const work = await screen.findByRole('heading', { name: 'work (2)', level: 4 });
    expect(screen.getByRole('heading', { name: 'home (1)', level: 4 })).toBeDefined();
    const column = work.parentElement!;
    expect(
      within(column)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Ship it (added here)', 'Standup (added here)']);
    expect(mock.calls[0]).toMatchObject({
      method: 'POST',
      url: expect.stringContaining('/api/integrations/acme-notes/actions/list-notes?accountId=a1'),
    });
  });

  it('shows the empty state', async () => {
    renderBoard();
    expect(await screen.findByText('No notes yet. Add one, or sync Acme Notes.')).toBeDefined();
  });

  it('adds a note with add-note and shows it after refetching the list', async () => {
    const user = userEvent.setup();
    const mock = renderBoard();
    await screen.findByText('No notes yet. Add one, or sync Acme Notes.');
    await user.type(screen.getByLabelText('Title'), 'Buy milk');
    await user.type(screen.getByLabelText('Folder'), 'home');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Added “Buy milk” to home.')).toBeDefined();
    expect(await screen.findByRole('heading', { name: 'home (1)' })).toBeDefined();
    expect(screen.getByRole('listitem').textContent).toBe('Buy milk (added here)');
    expect(screen.getByLabelText('Title')).toHaveProperty('value', '');
    const added = mock.calls.find((call) => call.url.includes('/actions/add-note'));
    expect(JSON.parse(added?.body ?? 'null')).toEqual({ title: 'Buy milk', folder: 'home' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('uses the default folder when Folder is empty', async () => {
    const user = userEvent.setup();
    renderBoard();
    await user.type(screen.getByLabelText('Title'), 'Call Ann');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByRole('heading', { name: 'inbox (1)' })).toBeDefined();
  });

  it('shows the invalid_input issues of a whitespace title', async () => {
    const user = userEvent.setup();
    renderBoard();
    await user.type(screen.getByLabelText('Title'), '   ');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not add the note (error code: invalid_input)');
    const issues = within(alert).getByRole('list', { name: 'Input problems' });
    expect(within(issues).getByRole('listitem').textContent).toMatch(/^title: /);
    expect(screen.getByText('No notes yet. Add one, or sync Acme Notes.')).toBeDefined();
  });

  it('shows the devError of a handler_error (sync without a connection)', async () => {
    const user = userEvent.setup();
    renderBoard();
    await screen.findByText('No notes yet. Add one, or sync Acme Notes.');
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Could not sync Acme Notes (error code: handler_error): Action failed.',
    );
    expect(alert.textContent).toContain(
      'Handler error (shown by the harness only): Acme Notes is not connected for this account',
    );
    expect(within(alert).getByText(/^PublicActionError: Acme Notes is not connected/)).toBeDefined();
  });

  it('syncs with sync-notes and shows the synced notes', async () => {
    const user = userEvent.setup();
    renderBoard({
      secrets: { account: { ACME_NOTES_ACCESS_TOKEN: 'at-1' } },
      fetchHandlers: [
        {
          match: VENDOR_NOTES,
          respond: () =>
            Response.json({
              notes: [
                { id: '1', title: 'Plan the launch', folder: 'inbox', created_at: '2030-01-01T00:00:00Z' },
                {
                  id: '2',
                  title: 'Write the changelog',
                  folder: 'inbox',
                  created_at: '2030-01-02T00:00:00Z',
                },
              ],
            }),
        },
      ],
    });
    await screen.findByText('No notes yet. Add one, or sync Acme Notes.');
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('Synced 2 notes')).toBeDefined();
    expect(await screen.findByRole('heading', { name: 'inbox (2)' })).toBeDefined();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Write the changelog (from Acme Notes)',
      'Plan the launch (from Acme Notes)',
    ]);
  });
});

const renderRecent = (respond: MockFetchHandler['respond'], limit?: number) =>
  renderWidget('Recent notes', <AcmeNotesRecent {...(limit === undefined ? {} : { limit })} />, [
    { match: VENDOR_NOTES, respond },
  ]);

const vendorNote = (id: number) => ({
  id: String(id),
  title: `Note ${id}`,
  body: '',
  folder: 'inbox',
  created_at: `2030-01-${String(id).padStart(2, '0')}T00:00:00.000Z`,
});

describe('AcmeNotesRecent', () => {
  it('lists the 5 most recent titles, newest first', async () => {
    const mock = renderRecent(() => Response.json({ notes: [1, 2, 3, 4, 5, 6, 7].map(vendorNote) }));
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    const list = await screen.findByRole('list', { name: 'Most recent notes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Note 7 (inbox)', 'Note 6 (inbox)', 'Note 5 (inbox)', 'Note 4 (inbox)', 'Note 3 (inbox)']);
    expect(mock.calls).toMatchObject([{ method: 'GET', url: `${API_ORIGIN}/v1/notes` }]);
  });

  it('shows the empty state', async () => {
    renderRecent(() => Response.json({ notes: [] }));
    expect(await screen.findByText('No recent notes.')).toBeDefined();
  });

  it('shows the HTTP status of a failure as an alert, with a retry', async () => {
    const user = userEvent.setup();
    let status = 503;
    renderRecent(() =>
      status === 503
        ? Response.json({ error: 'unavailable' }, { status })
        : Response.json({ notes: [vendorNote(1)] }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Acme Notes answered 503');
    status = 200;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByRole('listitem').textContent).toBe('Note 1 (inbox)');
  });
});
