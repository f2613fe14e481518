import { buildBundle, createInProcessRuntime } from '@platform/host';
import { type Capabilities, createMemoryCapabilities, type LogEntry } from '@platform/sdk/runtime';
import { afterAll, expect, it } from 'vitest';
import { FIXTURES } from './_host.js';

// The in-process runtime cannot stop a handler past its budget; what it saves afterwards must be
// refused, as the isolate bridge refuses every request of a call that ended.
const runtime = createInProcessRuntime();
afterAll(() => runtime.close());

it('refuses a checkpoint of an in-process handler that runs on past its budget', async () => {
  const bundle = await buildBundle(`${FIXTURES}concurrency/integration.ts`);
  const memory = createMemoryCapabilities();
  const call = memory.openCall();
  let go!: (value: string) => void;
  const gate = new Promise<string>((resolve) => {
    go = resolve;
  });
  let logged!: (entry: LogEntry) => void;
  const late = new Promise<LogEntry>((resolve) => {
    logged = resolve;
  });
  const capabilities: Capabilities = {
    ...memory,
    ...call,
    // The handler waits here until the test lets it go, after its call has answered.
    secrets: { ...call.secrets, get: () => gate },
    log: (entry) => {
      if (entry.message === 'late checkpoint') logged(entry);
    },
  };
  const envelope = await runtime.invokeAction({
    version: { id: 'concurrency-v1', slug: 'test-concurrency', number: 1, loadBundle: async () => bundle },
    capabilities,
    actor: { kind: 'user', userId: 'u1', accountId: 'a1' },
    timeoutMs: 200,
    actionName: 'late-checkpoint',
    rawBody: '{}',
  });
  expect(envelope).toEqual({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
  go('go');
  expect((await late).fields).toEqual({
    late: 'ctx.checkpoint() refused: the call already ended (its budget ran out)',
  });
  expect(memory.state.storage.account.has('sync_state/progress')).toBe(false);
});
