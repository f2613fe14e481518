import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './_host.js';

describe('test host', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close());

  it('answers an action through the full route', async () => {
    const response = await host.call(
      `/api/integrations/test-notes/actions/add-note?accountId=${host.accountId}`,
      { json: { title: 'Hi' } },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, data: { id: 'n1', title: 'Hi' } });
  });
});
