import {
  createPartnerConnectionCheck,
  IntegrationRequestError,
  OAUTH_CALLBACK_ERROR_MESSAGES,
  partnerOAuthConnectPath,
  partnerOAuthErrorParam,
  partnerOAuthStatusUrl,
} from '@platform/sdk/hooks';
import { describe, expect, it, vi } from 'vitest';

// The spec's eleven OAuth callback codes; the client mapping must word every one of them.
const SPEC_CODES = [
  'denied',
  'provider_error',
  'expired',
  'invalid',
  'unauthorized',
  'not_configured',
  'exchange_failed',
  'save_failed',
  'wrong_workspace',
  'app_not_set_up',
  'organization_access',
];

describe('partner OAuth paths', () => {
  it('names the connect and status routes of the integration', () => {
    expect(partnerOAuthConnectPath('acme-notes')).toBe('/api/integrations/acme-notes/oauth/connect');
    expect(partnerOAuthStatusUrl('acme-notes', { accountId: 'a 1' })).toBe(
      '/api/integrations/acme-notes/oauth/status?accountId=a+1',
    );
  });
});

describe('partnerOAuthErrorParam', () => {
  const param = partnerOAuthErrorParam('acme-notes');

  it('is named after the slug', () => {
    expect(param.name).toBe('acme-notes_oauth_error');
  });

  it('has a message for exactly the spec’s codes', () => {
    expect(Object.keys(OAUTH_CALLBACK_ERROR_MESSAGES).sort()).toEqual([...SPEC_CODES].sort());
  });

  it.each(SPEC_CODES)('words %s with typographic apostrophes only', (code) => {
    const message = param.messageFor(code);
    expect(message).toBe(OAUTH_CALLBACK_ERROR_MESSAGES[code as keyof typeof OAUTH_CALLBACK_ERROR_MESSAGES]);
    expect(message).not.toContain("'");
    expect(message).toMatch(/^[A-Z].*\.$/);
    expect(param.read(`/settings?${param.name}=${code}`)).toEqual({ code, message });
  });

  it('words each code differently', () => {
    expect(new Set(SPEC_CODES.map((code) => param.messageFor(code))).size).toBe(SPEC_CODES.length);
  });

  it('says what the spec says for the three 0.4.0 codes', () => {
    expect(param.messageFor('wrong_workspace')).toMatch(/different account or workspace/);
    expect(param.messageFor('app_not_set_up')).toMatch(/refused the OAuth app/);
    expect(param.messageFor('organization_access')).toMatch(/only personal access is accepted/);
  });

  it('gives an unknown code a generic message naming it', () => {
    expect(param.messageFor('teapot')).toBe(
      'The connection didn’t complete (error “teapot”). Connect again, and if it keeps failing, ask a workspace admin to check the integration’s setup.',
    );
  });

  it('reads the parameter from a URL, a query string or search params, and nothing else', () => {
    expect(param.read(new URL('https://host.test/x?acme-notes_oauth_error=expired#top'))?.code).toBe(
      'expired',
    );
    expect(param.read(new URLSearchParams('acme-notes_oauth_error=invalid'))?.code).toBe('invalid');
    expect(param.read('?acme-notes_oauth_error=denied&tab=2')?.code).toBe('denied');
    expect(param.read('/settings?other_oauth_error=denied')).toBeNull();
    expect(param.read('/settings?acme-notes_oauth_error=')).toBeNull();
    expect(param.read('/settings#acme-notes_oauth_error=denied')).toBeNull();
  });
});

describe('createPartnerConnectionCheck', () => {
  const check = createPartnerConnectionCheck('acme-notes');

  it('asks the status route for the account', async () => {
    const fetch = vi.fn(async () =>
      Response.json({
        ok: true,
        data: { connected: true, connectedAt: '2026-05-01T10:00:00Z', scope: 'read' },
      }),
    );
    expect(await check('a1', { fetch })).toEqual({
      connected: true,
      connectedAt: '2026-05-01T10:00:00Z',
      scope: 'read',
    });
    expect(fetch).toHaveBeenCalledWith(
      '/api/integrations/acme-notes/oauth/status?accountId=a1',
      expect.objectContaining({ method: 'GET' }),
    );
  });

  it('reports not connected', async () => {
    const fetch = vi.fn(async () => Response.json({ ok: true, data: { connected: false } }));
    expect(await check('a1', { fetch })).toEqual({ connected: false });
  });

  it('rejects a status that is not one', async () => {
    const fetch = vi.fn(async () => Response.json({ ok: true, data: { connected: 'yes' } }));
    await expect(check('a1', { fetch })).rejects.toMatchObject({ code: 'invalid_response', status: 200 });
  });

  it('rejects with the route’s code', async () => {
    const fetch = vi.fn(async () =>
      Response.json(
        { ok: false, error: { code: 'forbidden', message: 'Not your account.' } },
        { status: 403 },
      ),
    );
    const rejection = check('a1', { fetch });
    await expect(rejection).rejects.toBeInstanceOf(IntegrationRequestError);
    await expect(rejection).rejects.toMatchObject({
      code: 'forbidden',
      status: 403,
      message: 'Not your account.',
    });
  });
});
