// Tools straight through both runtimes (no host): the same answers in process and in the isolate,
// the arguments checked by the tool's schema, failures public or generic.
import { buildBundle, createInProcessRuntime, createIsolatedRuntime, type Runtime } from '@platform/host';
import { createMemoryCapabilities, TOOL_FAILED_MESSAGE } from '@platform/sdk/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from './_host.js';

let bundle: string;
const runtimes: Record<string, Runtime> = {
  'in-process': createInProcessRuntime(),
  isolated: createIsolatedRuntime({ runners: 1 }),
};

beforeAll(async () => {
  bundle = await buildBundle(`${FIXTURES}tools/integration.ts`);
});
afterAll(async () => {
  await Promise.all(Object.values(runtimes).map((runtime) => runtime.close()));
});

describe.each(Object.keys(runtimes))('invokeTool on the %s runtime', (name) => {
  const runtime = () => runtimes[name]!;
  const capabilities = createMemoryCapabilities();
  const call = (toolName: string, args: unknown) =>
    runtime().invokeTool({
      version: { id: `tools-${name}`, slug: 'test-tools', number: 1, loadBundle: async () => bundle },
      capabilities,
      actor: { kind: 'user', userId: 'u1', accountId: 'a1' },
      timeoutMs: 10_000,
      toolName,
      args,
    });

  it('runs a tool with checked arguments and answers its JSON', async () => {
    await expect(call('add_note', { title: 'first' })).resolves.toEqual({
      ok: true,
      data: { id: 'n1', title: 'first' },
    });
    await expect(call('search_notes', { text: 'fir' })).resolves.toEqual({
      ok: true,
      data: { notes: [{ id: 'n1', title: 'first' }] },
    });
  });

  it('refuses arguments the schema refuses, naming the field, without running the handler', async () => {
    const answer = await call('add_note', { title: 7 });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (answer.ok || answer.error.code !== 'invalid_input') throw new Error('expected invalid_input');
    expect(answer.error.issues[0]?.path).toEqual(['title']);
    await expect(call('search_notes', { text: 'first' })).resolves.toMatchObject({
      data: { notes: [{ title: 'first' }] },
    });
  });

  it('answers public refusals with their message and bugs with the generic one', async () => {
    await expect(call('refuse', {})).resolves.toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'The notes service is in maintenance.', isPublic: true },
    });
    const crash = await call('crash', undefined);
    expect(crash).toEqual({
      ok: false,
      error: { code: 'handler_error', message: TOOL_FAILED_MESSAGE, isPublic: false },
    });
    expect(JSON.stringify(crash)).not.toContain('hunter2');
  });

  it('answers tool_not_found for an unknown tool and for one without a handler', async () => {
    await expect(call('nope', {})).resolves.toMatchObject({ ok: false, error: { code: 'tool_not_found' } });
    await expect(call('later', {})).resolves.toMatchObject({ ok: false, error: { code: 'tool_not_found' } });
  });
});
