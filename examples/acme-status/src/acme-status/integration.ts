import { defineIntegration } from '@platform/sdk/integration';
import { z } from 'zod';

/** The (made-up) Acme Status API. */
export const API_ORIGIN = 'https://api.acmestatus.com';

const Monitor = z.object({ id: z.string(), name: z.string(), status: z.enum(['up', 'down', 'paused']) });

/**
 * An integration connected with an API key: the account's owner enters the key on the activation,
 * the host checks it with `GET /v1/account` and stores it as an account secret, and every
 * `ctx.fetch` to the API carries `Authorization: Bearer <key>` without the handlers reading it.
 */
export default defineIntegration({
  slug: 'acme-status',
  egress: [API_ORIGIN],
  connection: {
    kind: 'apiKey',
    fields: [{ name: 'apiKey', label: 'Acme Status API key', secret: true }],
    header: 'Bearer {apiKey}',
    verify: { method: 'GET', url: `${API_ORIGIN}/v1/account` },
    authorization: { origins: [API_ORIGIN] },
  },
  actions: {
    'list-monitors': {
      description: 'Lists the monitors of the connected Acme Status account',
      input: z.object({}),
      output: z.array(Monitor),
      handler: async (ctx) => {
        const response = await ctx.fetch(`${API_ORIGIN}/v1/monitors`);
        if (!response.ok) throw new Error(`Acme Status answered ${response.status}`);
        return z.object({ monitors: z.array(Monitor) }).parse(await response.json()).monitors;
      },
    },
  },
});
