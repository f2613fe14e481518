// @vitest-environment happy-dom
// The widgets in the harness's plumbing, per variant: the harness fetch (createHarnessFetch) answers
// the vendor request from harness.config.ts's fixtures and passes the actions to the harness server's
// own handlers (createHarnessApiHandlers), as `platform dev` does; nothing reaches the network.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HarnessVariant } from '@platform/harness';
import { createHarnessApiHandlers } from '@platform/harness/api';
import { createHarnessFetch, createSeededQueryClient } from '@platform/harness/hooks';
import { IntegrationFetchProvider } from '@platform/sdk/hooks';
import { Widget } from '@platform/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessIntegrations } from '../../harness.config.js';

const entry = harnessIntegrations[0]!;
let projectDir: string;
const lines: string[] = [];

beforeEach(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'acme-notes-widgets-'));
  lines.length = 0;
});

afterEach(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

/** Every widget of the entry in its chrome, as the harness's widgets surface lays them out. */
function renderSurface(variant: HarnessVariant) {
  const server = createHarnessApiHandlers(harnessIntegrations, {
    projectDir,
    env: {},
    log: (line) => lines.push(line),
  });
  const fetch = createHarnessFetch({
    entry,
    toolbar: { variant, mode: 'fixtures', record: false },
    fetch: (input, init) => server.fetch(new Request(input, init)),
    log: (line) => lines.push(line),
  });
  render(
    <IntegrationFetchProvider fetch={fetch}>
      {entry.widgets.map((widget) => {
        const Component = widget.component;
        return (
          <div key={widget.id} data-testid={`widget-${widget.id}`}>
            <Widget isCollapsible={widget.isCollapsible ?? false} isPinnable={widget.isPinnable ?? false}>
              <Widget.Header title={widget.title} />
              <Widget.Body>
                <QueryClientProvider client={createSeededQueryClient({ seeds: widget.seeds, variant })}>
                  <Component />
                </QueryClientProvider>
              </Widget.Body>
            </Widget>
          </div>
        );
      })}
    </IntegrationFetchProvider>,
  );
  return {
    board: screen.getByTestId('widget-acme-notes-board'),
    recent: screen.getByTestId('widget-acme-notes-recent'),
  };
}

describe('the acme-notes widgets in the harness (fixtures mode)', () => {
  it('default: two recent notes; adding a note and syncing reach the harness server', async () => {
    const user = userEvent.setup();
    const { board, recent } = renderSurface('default');
    const list = await within(recent).findByRole('list', { name: 'Most recent notes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Write the changelog (inbox)', 'Plan the launch (inbox)']);

    expect(await within(board).findByText('No notes yet. Add one, or sync Acme Notes.')).toBeDefined();
    await user.type(within(board).getByLabelText('Title'), 'Buy milk');
    await user.type(within(board).getByLabelText('Folder'), 'home');
    await user.click(within(board).getByRole('button', { name: 'Add note' }));
    expect(await within(board).findByRole('heading', { name: 'home (1)' })).toBeDefined();

    await user.click(within(board).getByRole('button', { name: 'Sync now' }));
    expect(await within(board).findByText('Synced 2 notes')).toBeDefined();
    expect(await within(board).findByRole('heading', { name: 'inbox (2)' })).toBeDefined();
    expect(within(board).getByRole('heading', { name: 'home (1)' })).toBeDefined();
    expect(lines.filter((line) => line.includes('refused'))).toEqual([]);
  });

  it('empty: no recent notes, and a sync finds none', async () => {
    const user = userEvent.setup();
    const { board, recent } = renderSurface('empty');
    expect(await within(recent).findByText('No recent notes.')).toBeDefined();
    await within(board).findByText('No notes yet. Add one, or sync Acme Notes.');
    await user.click(within(board).getByRole('button', { name: 'Sync now' }));
    expect(await within(board).findByText('Synced 0 notes')).toBeDefined();
  });

  it('error: the vendor answers 503, in both widgets', async () => {
    const user = userEvent.setup();
    const { board, recent } = renderSurface('error');
    const alert = await within(recent).findByRole('alert');
    expect(alert.textContent).toContain('Acme Notes answered 503');

    await within(board).findByText('No notes yet. Add one, or sync Acme Notes.');
    await user.click(within(board).getByRole('button', { name: 'Sync now' }));
    const failure = await within(board).findByRole('alert');
    expect(failure.textContent).toContain('(error code: handler_error): Action failed.');
    expect(failure.textContent).toContain('Acme Notes answered 503 to GET /v1/notes');
  });
});
