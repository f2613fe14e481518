import { defineIntegration } from '@platform/sdk/integration';
import { invokeAction } from '@platform/sdk/runtime';
import { createMockContext } from '@platform/sdk/testing';
import { z } from 'zod';
import { measure, printTable } from './_run.js';

export async function benchInvokeAction(): Promise<void> {
  const Input = z.object({ title: z.string(), tags: z.array(z.string()) });
  const Output = z.object({ id: z.string(), title: z.string() });
  const handler = async (_ctx: unknown, input: { title: string }) => ({ id: 'n1', title: input.title });
  const definition = defineIntegration({
    slug: 'acme-notes',
    actions: { 'create-note': { description: 'Create', input: Input, output: Output, handler } },
  });
  const ctx = createMockContext(definition);
  const body = JSON.stringify({ title: 'Hello', tags: ['a', 'b'] });
  const parsed = JSON.parse(body) as { title: string };
  const rows = await measure({
    'handler called directly': () => handler(ctx, parsed),
    'JSON.parse + zod input/output parse + handler (by hand)': async () => {
      const input = Input.parse(JSON.parse(body));
      return Output.parse(await handler(ctx, input));
    },
    'invokeAction(production)': () =>
      invokeAction(definition, 'create-note', body, ctx, { mode: 'production' }),
    'invokeAction(harness)': () => invokeAction(definition, 'create-note', body, ctx, { mode: 'harness' }),
  });
  printTable('invokeAction() overhead (baseline: handler called directly)', rows, 'handler called directly');
  const byHand = rows[1]!;
  const production = rows[2]!;
  console.log(
    `  invokeAction vs the same validation by hand: ${(production.meanUs / byHand.meanUs).toFixed(2)}x (${(production.meanUs - byHand.meanUs).toFixed(2)} us added per call)`,
  );
}
