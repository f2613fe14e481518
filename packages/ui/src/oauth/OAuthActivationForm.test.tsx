// @vitest-environment happy-dom
import {
  createPartnerConnectionCheck,
  OAUTH_CALLBACK_ERROR_MESSAGES,
  type PartnerConnectionCheck,
  partnerOAuthConnectPath,
  partnerOAuthErrorParam,
} from '@platform/sdk/hooks';
import { createMockFetchProvider } from '@platform/sdk/testing';
import { type ActivationFormProps, OAuthActivationForm } from '@platform/ui';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const SLUG = 'acme-notes';
const STATUS = 'GET /api/integrations/acme-notes/oauth/status';

function AcmeActivation(props: ActivationFormProps & { checkConnection?: PartnerConnectionCheck }) {
  return (
    <OAuthActivationForm
      providerName="Acme"
      connectPath={partnerOAuthConnectPath(SLUG)}
      checkConnection={createPartnerConnectionCheck(SLUG)}
      errorParam={partnerOAuthErrorParam(SLUG)}
      {...props}
    />
  );
}

function renderWithStatus(data: unknown, props: Partial<ActivationFormProps> = {}) {
  const mock = createMockFetchProvider({
    handlers: [{ match: STATUS, respond: () => Response.json({ ok: true, data }) }],
  });
  render(
    <mock.Provider>
      <AcmeActivation slug={SLUG} accountId="acct-1" {...props} />
    </mock.Provider>,
  );
  return mock;
}

function connectHref(): URL {
  const link = screen.getByRole('link');
  return new URL(link.getAttribute('href')!, location.origin);
}

beforeEach(() => {
  history.replaceState(null, '', '/settings/integrations?tab=acme');
});

afterEach(() => {
  history.replaceState(null, '', '/');
});

describe('OAuthActivationForm', () => {
  it('checks the connection, then says the account is not connected and offers to connect', async () => {
    const mock = renderWithStatus({ connected: false });
    expect(screen.getByRole('status').textContent).toBe('Checking the connection…');
    // No Connect button while checking: it would turn into Reconnect for a connected account.
    expect(screen.queryByRole('link')).toBeNull();
    expect(await screen.findByText('Not connected to Acme yet.')).toBeTruthy();
    expect(mock.calls.map((call) => call.url)).toEqual([
      `${location.origin}/api/integrations/acme-notes/oauth/status?accountId=acct-1`,
    ]);
    expect(screen.getByRole('link').textContent).toBe('Connect Acme');
  });

  it('starts the connect redirect with the account and the page to come back to', async () => {
    renderWithStatus({ connected: false });
    await screen.findByText('Not connected to Acme yet.');
    const href = connectHref();
    expect(href.pathname).toBe('/api/integrations/acme-notes/oauth/connect');
    expect(href.searchParams.get('accountId')).toBe('acct-1');
    expect(href.searchParams.get('returnPath')).toBe('/settings/integrations?tab=acme');
  });

  it('uses the returnPath it is given', async () => {
    renderWithStatus({ connected: false }, { returnPath: '/marketplace/acme-notes' });
    await screen.findByText('Not connected to Acme yet.');
    expect(connectHref().searchParams.get('returnPath')).toBe('/marketplace/acme-notes');
  });

  it('says the account is connected, since when, and offers to reconnect', async () => {
    renderWithStatus({ connected: true, connectedAt: '2026-05-01T12:00:00Z', scope: 'notes.read' });
    expect(await screen.findByText('Connected to Acme.')).toBeTruthy();
    expect(screen.getByText('Connected since May 1, 2026.')).toBeTruthy();
    expect(screen.getByRole('link').textContent).toBe('Reconnect');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each(Object.entries(OAUTH_CALLBACK_ERROR_MESSAGES))(
    'shows the message for %s from the return URL, and leaves it out of the next returnPath',
    async (code, message) => {
      history.replaceState(null, '', `/settings/integrations?tab=acme&acme-notes_oauth_error=${code}`);
      renderWithStatus({ connected: false });
      const alert = screen.getByRole('alert');
      expect(alert.querySelector('.plt-alert__title')?.textContent).toBe('Acme wasn’t connected');
      expect(alert.querySelector('.plt-alert__message')?.textContent).toBe(message);
      expect(alert.getAttribute('data-code')).toBe(code);
      await screen.findByText('Not connected to Acme yet.');
      expect(connectHref().searchParams.get('returnPath')).toBe('/settings/integrations?tab=acme');
    },
  );

  it('ignores another integration’s error parameter', async () => {
    history.replaceState(null, '', '/settings?other-app_oauth_error=denied');
    renderWithStatus({ connected: false });
    await screen.findByText('Not connected to Acme yet.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when the connection cannot be checked, and checks again on request', async () => {
    const user = userEvent.setup();
    const check = vi
      .fn<PartnerConnectionCheck>()
      .mockRejectedValueOnce(new Error('The OAuth status route of "acme-notes" never reached the server.'))
      .mockResolvedValueOnce({ connected: true });
    render(<AcmeActivation slug={SLUG} accountId="acct-1" checkConnection={check} />);
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('.plt-alert__title')?.textContent).toBe('The connection couldn’t be checked');
    expect(alert.querySelector('.plt-alert__message')?.textContent).toBe(
      'Check again in a moment. If it keeps failing, Acme or the platform may be down.',
    );
    // The server's words stay available to whoever reports the problem, behind "Details".
    expect(alert.querySelector('details')?.textContent).toBe(
      'DetailsThe connection couldn’t be checked: The OAuth status route of "acme-notes" never reached the server.',
    );
    expect(screen.queryByRole('link')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('Connected to Acme.')).toBeTruthy();
    expect(check).toHaveBeenCalledTimes(2);
    expect(check).toHaveBeenLastCalledWith(
      'acct-1',
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
  });
});
