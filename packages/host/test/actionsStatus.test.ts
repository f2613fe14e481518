import { createInProcessRuntime, type Runtime } from '@platform/host';
import type { ActionEnvelope } from '@platform/sdk/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './_host.js';

// The status the actions route answers comes from an envelope partner code produced (an isolate's
// JSON): a runtime that answers whatever envelope the request names stands for a forged one.
const inner = createInProcessRuntime();
const forging: Runtime = {
  ...inner,
  async invokeAction(call) {
    return (JSON.parse(call.rawBody) as { envelope: ActionEnvelope }).envelope;
  },
};

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({ runtime: forging });
});
afterAll(() => host.close());

async function answer(envelope: unknown) {
  const response = await host.call(
    `/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`,
    {
      json: { envelope },
    },
  );
  return { status: response.status, body: await response.json() };
}

describe('actions route: the status of a failure', () => {
  it("answers a handler_error's 4xx status, and keeps it out of the body", async () => {
    expect(
      await answer({ ok: false, error: { code: 'handler_error', message: 'Connect first', status: 409 } }),
    ).toEqual({
      status: 409,
      body: { ok: false, error: { code: 'handler_error', message: 'Connect first' } },
    });
  });

  it('ignores a status outside 400-499, or on another code', async () => {
    for (const status of [503, 200, 302, 600, 409.5, '409']) {
      expect(await answer({ ok: false, error: { code: 'handler_error', message: 'x', status } })).toEqual({
        status: 500,
        body: { ok: false, error: { code: 'handler_error', message: 'x' } },
      });
    }
    expect(
      (await answer({ ok: false, error: { code: 'invalid_input', message: 'x', status: 409 } })).status,
    ).toBe(400);
    expect((await answer({ ok: false, error: { code: 'made_up', message: 'x' } })).status).toBe(500);
  });
});
