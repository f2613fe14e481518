import { parseDefinition } from '@platform/integration-schema';
import { defineIntegration } from '@platform/sdk/integration';
import { z } from 'zod';
import { measure, printTable } from './_run.js';

// A large definition: 50 actions, 20 webhooks (signed, half Stripe-style), 20 schedules.
function largeDefinition() {
  const actions = Object.fromEntries(
    Array.from({ length: 50 }, (_, i) => [
      `action-${i}`,
      {
        description: `Action ${i}`,
        input: z.object({ id: z.string(), limit: z.number().optional() }),
        output: z.object({ ok: z.boolean() }),
        handler: async () => ({ ok: true }),
      },
    ]),
  );
  const webhooks = Array.from({ length: 20 }, (_, i) => ({
    id: `event-${i}`,
    description: `vendor event.${i}`,
    payloadSchema: z.object({ type: z.string() }),
    signature: {
      header: 'X-Signature',
      secretName: 'WEBHOOK_SECRET',
      ...(i % 2 === 0
        ? {
            scheme: {
              format: 'keyed' as const,
              digestKey: 'v1',
              timestampKey: 't',
              signedPayload: '{timestamp}.{body}',
              toleranceSeconds: 300,
            },
          }
        : {}),
    },
    handler: async () => {},
  }));
  const schedules = Array.from({ length: 20 }, (_, i) => ({
    id: `schedule-${i}`,
    cron: `${i} */2 * * 1-5`,
    handler: async () => {},
  }));
  return {
    slug: 'acme-large',
    egress: ['https://api.acme.com', 'https://*.acme-cdn.com'],
    storage: {
      account: { settings: z.object({ a: z.string() }), 'cache/notes': z.array(z.string()) },
      user: { preferences: z.object({ dark: z.boolean() }) },
    },
    actions,
    webhooks,
    schedules,
  };
}

export async function benchDefinition(): Promise<void> {
  const large = largeDefinition();
  const minimal = { slug: 'acme-minimal' };
  const rows = await measure({
    'defineIntegration(minimal { slug })': () => defineIntegration(minimal),
    'defineIntegration(50 actions, 20 webhooks, 20 schedules)': () => defineIntegration(large as never),
    'parseDefinition(same large definition)': () => parseDefinition(large),
  });
  printTable(
    'defineIntegration() on a large definition (baseline: minimal definition)',
    rows,
    'defineIntegration(minimal { slug })',
  );
  const largeRow = rows[1]!;
  console.log(`  per declaration (90 declarations): ${(largeRow.meanUs / 90).toFixed(2)} us`);
}
