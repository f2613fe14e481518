import { describe, expect, it } from 'vitest';
import { BRIDGE_CHANNEL, type FetchMessage } from './protocol.js';
import { relayDecision } from './relay.js';

const frame = { slug: 'acme-notes', accountId: 'acct-page' };
const fetchOf = (method: string, path: string, body: string | null = null): FetchMessage => ({
  channel: BRIDGE_CHANNEL,
  type: 'fetch',
  id: 7,
  method,
  path,
  headers: body === null ? {} : { 'content-type': 'application/json' },
  body,
});

describe('relayDecision', () => {
  it('relays the frame own action with the page account, whatever account the frame names', () => {
    expect(
      relayDecision(
        fetchOf('POST', '/api/integrations/acme-notes/actions/add-note?accountId=victim', '{}'),
        frame,
      ),
    ).toEqual({
      allowed: true,
      url: '/api/integrations/acme-notes/actions/add-note?accountId=acct-page',
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: '{}',
    });
  });

  it('relays storage (keys and scope kept), OAuth status and the activation read', () => {
    const storage = relayDecision(
      fetchOf(
        'GET',
        '/api/integrations/acme-notes/storage?accountId=x&keys=settings,cache/notes&scope=user&extra=1',
      ),
      frame,
    );
    expect(storage).toMatchObject({ allowed: true, method: 'GET', body: null });
    const url = new URL((storage as { url: string }).url, 'http://host.test');
    expect(url.pathname).toBe('/api/integrations/acme-notes/storage');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      keys: 'settings,cache/notes',
      scope: 'user',
      accountId: 'acct-page',
    });
    for (const path of [
      '/api/integrations/acme-notes/oauth/status',
      '/api/integrations/acme-notes/activation',
    ]) {
      expect(relayDecision(fetchOf('GET', `${path}?accountId=a`), frame)).toMatchObject({
        allowed: true,
        url: `${path}?accountId=acct-page`,
      });
    }
  });

  it.each([
    ['another slug', 'POST', '/api/integrations/test-notes/actions/list-notes', '{}'],
    ['the session API', 'GET', '/api/platform/me', null],
    ['tokens', 'POST', '/api/platform/tokens', '{}'],
    ['an absolute URL', 'GET', 'https://evil.example/api/integrations/acme-notes/storage', null],
    ['a protocol-relative URL', 'GET', '//evil.example/api/integrations/acme-notes/storage', null],
    ['a dot segment', 'POST', '/api/integrations/acme-notes/actions/../../../platform/tokens', '{}'],
    ['an encoded slash', 'POST', '/api/integrations/acme-notes/actions/x%2F..%2F..%2Fplatform', '{}'],
    ['an encoded dot', 'GET', '/api/integrations/acme-notes/%2e%2e/test-notes/storage', null],
    ['a backslash', 'GET', '/api/integrations/acme-notes\\..\\test-notes/storage', null],
    ['a fragment', 'GET', '/api/integrations/acme-notes/storage#x', null],
    ['a double slash', 'GET', '/api/integrations//acme-notes/storage', null],
    ['an OAuth connect (navigation, not a fetch)', 'GET', '/api/integrations/acme-notes/oauth/connect', null],
    ['an activation change', 'POST', '/api/integrations/acme-notes/activation', '{}'],
    ['deactivation', 'DELETE', '/api/integrations/acme-notes/activation', null],
    ['an action by GET', 'GET', '/api/integrations/acme-notes/actions/add-note', null],
    ['storage with a body', 'GET', '/api/integrations/acme-notes/storage', '{}'],
    ['a webhook', 'POST', '/api/integrations/acme-notes/webhooks/note-changed', '{}'],
    ['a slug in capitals', 'POST', '/api/integrations/ACME-NOTES/actions/add-note', '{}'],
  ])('refuses %s with a 403 forbidden envelope', (_name, method, path, body) => {
    const decision = relayDecision(fetchOf(method, path, body), frame);
    expect(decision.allowed).toBe(false);
    if (decision.allowed) return;
    expect(decision.result).toMatchObject({
      channel: BRIDGE_CHANNEL,
      type: 'fetch-result',
      id: 7,
      status: 403,
    });
    expect(JSON.parse(decision.result.body)).toEqual({
      ok: false,
      error: { code: 'forbidden', message: expect.stringContaining('A widget of "acme-notes" may not') },
    });
  });

  it('refuses an action body declared as something other than JSON', () => {
    const message = {
      ...fetchOf('POST', '/api/integrations/acme-notes/actions/add-note', 'a=1'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
    expect(relayDecision(message, frame).allowed).toBe(false);
  });

  describe('an activation form', () => {
    const form = { ...frame, kind: 'activation-form' as const };
    const put = (path: string, body: string | null = '{"data":{"notebook":"Work"}}') =>
      fetchOf('PUT', path, body);

    it('relays the PUT of its own activation data, with the page account', () => {
      expect(
        relayDecision(put('/api/integrations/acme-notes/activation/data?accountId=victim'), form),
      ).toEqual({
        allowed: true,
        url: '/api/integrations/acme-notes/activation/data?accountId=acct-page',
        method: 'PUT',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: '{"data":{"notebook":"Work"}}',
      });
      expect(relayDecision(fetchOf('GET', '/api/integrations/acme-notes/activation'), form)).toMatchObject({
        allowed: true,
      });
    });

    it.each([
      ['a widget', 'widget' as const, '/api/integrations/acme-notes/activation/data', 'A widget'],
      ['a widget with no kind', undefined, '/api/integrations/acme-notes/activation/data', 'A widget'],
      ['a tile', 'tile' as const, '/api/integrations/acme-notes/activation/data', 'The tile'],
      [
        'the form, for another slug',
        'activation-form' as const,
        '/api/integrations/test-notes/activation/data',
        'The activation form',
      ],
      [
        'the form, through a dot segment',
        'activation-form' as const,
        '/api/integrations/acme-notes/activation/../../test-notes/activation/data',
        'The activation form',
      ],
    ])('refuses the data PUT from %s', (_name, kind, path, who) => {
      const decision = relayDecision(put(path), kind === undefined ? frame : { ...frame, kind });
      expect(decision.allowed).toBe(false);
      if (decision.allowed) return;
      expect(decision.result.status).toBe(403);
      expect(JSON.parse(decision.result.body).error.message).toContain(`${who} of "acme-notes" may not PUT`);
    });

    it('refuses the data by another method, without JSON, or deactivation', () => {
      expect(
        relayDecision(fetchOf('POST', '/api/integrations/acme-notes/activation/data', '{}'), form).allowed,
      ).toBe(false);
      const form_ = {
        ...put('/api/integrations/acme-notes/activation/data'),
        headers: { 'content-type': 'text/plain' },
      };
      expect(relayDecision(form_, form).allowed).toBe(false);
      expect(relayDecision(fetchOf('DELETE', '/api/integrations/acme-notes/activation'), form).allowed).toBe(
        false,
      );
    });
  });
});
