// @vitest-environment happy-dom
// The tile and the activation form as the host's frames render them: the form reads the activation
// data and saves the preferred folder into it with one PUT of the activation data.
import { createMockFetchProvider } from '@platform/sdk/testing';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AcmeNotesActivationForm from './forms/AcmeNotesActivationForm.js';
import AcmeNotesTile from './forms/AcmeNotesTile.js';

describe('AcmeNotesTile', () => {
  it('lists what the integration offers', () => {
    render(<AcmeNotesTile />);
    expect(screen.getByRole('list', { name: 'What Acme Notes offers' }).children).toHaveLength(3);
  });
});

describe('AcmeNotesActivationForm', () => {
  it('shows the saved folder and saves a new one into the activation data', async () => {
    let saved: unknown;
    const mock = createMockFetchProvider({
      handlers: [
        {
          match: 'GET /api/integrations/acme-notes/activation',
          respond: () =>
            Response.json({ ok: true, data: { active: true, data: { preferredFolder: 'work' } } }),
        },
        {
          match: 'PUT /api/integrations/acme-notes/activation/data',
          respond: async (request) => {
            saved = await request.json();
            return Response.json({ ok: true, data: { updated: true } });
          },
        },
      ],
    });
    render(
      <mock.Provider>
        <AcmeNotesActivationForm accountId="a1" />
      </mock.Provider>,
    );
    const input = screen.getByLabelText('Preferred folder');
    await waitFor(() => expect(input).toHaveProperty('value', 'work'));
    await userEvent.clear(input);
    await userEvent.type(input, 'projects');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect(saved).toEqual({ data: { preferredFolder: 'projects' } });
    expect(
      mock.calls.map((call) => `${call.method} ${new URL(call.url).pathname}${new URL(call.url).search}`),
    ).toEqual([
      'GET /api/integrations/acme-notes/activation?accountId=a1',
      'PUT /api/integrations/acme-notes/activation/data?accountId=a1',
    ]);
  });
});
