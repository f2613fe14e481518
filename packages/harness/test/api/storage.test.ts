import type { HarnessRegistryEntry } from '@platform/harness';
import { describe, expect, it } from 'vitest';
import { harness, send } from './_helpers.js';
import { acmeDefinition } from './_integration.js';

const entry: HarnessRegistryEntry = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: 'Notes',
  widgets: [],
  definition: acmeDefinition(),
  triggerMocks: {
    storage: {
      account: { 'cache/notes': [{ id: 'a', title: 'A' }] },
      user: { preferences: { sort: 'oldest' } },
    },
  },
};
const storage = (query: string) => `/api/integrations/acme-notes/storage?accountId=whatever&${query}`;

describe('harness storage bridge', () => {
  it('reads declared keys of the account scope by default and the user scope on request, null when unset', async () => {
    const { handlers } = await harness([entry]);
    expect((await send(handlers, 'GET', storage('keys=cache/notes,sync_state'))).body).toEqual({
      ok: true,
      data: { 'cache/notes': [{ id: 'a', title: 'A' }], sync_state: null },
    });
    expect((await send(handlers, 'GET', storage('scope=user&keys=preferences'))).body).toEqual({
      ok: true,
      data: { preferences: { sort: 'oldest' } },
    });
  });

  it('answers invalid_input (400) for an undeclared key, a bad scope and no keys', async () => {
    const { handlers } = await harness([entry]);
    const undeclared = await send(handlers, 'GET', storage('keys=cache/notes,settings'));
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error).toEqual({
      code: 'invalid_input',
      message:
        'Storage key "settings" not declared under storage.account; declared: cache/notes, sync_state.',
    });
    const userKey = await send(handlers, 'GET', storage('keys=preferences'));
    expect(userKey.status).toBe(400);
    const scope = await send(handlers, 'GET', storage('scope=team&keys=preferences'));
    expect(scope.body.error.message).toBe('scope must be "account" or "user", not "team".');
    const none = await send(handlers, 'GET', storage(''));
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('Add keys=');
  });

  it('treats every key as undeclared for an entry without a definition', async () => {
    const bare: HarnessRegistryEntry = { slug: 'bare', name: 'Bare', description: 'x', widgets: [] };
    const { handlers } = await harness([bare]);
    const answer = await send(handlers, 'GET', '/api/integrations/bare/storage?keys=cache');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('declared: none');
  });
});
