import { asHarnessDefinition, defineHarnessConfig } from '@platform/harness';
import definition, { API_ORIGIN } from './src/acme-status/integration.js';

export const MONITORS = [
  { id: 'm1', name: 'Website', status: 'up' },
  { id: 'm2', name: 'API', status: 'down' },
] as const;

// Fixtures mode answers from here; live mode calls the real API with the key entered on the
// Activation surface (kept in the live store, sent by ctx.fetch as the connection declares).
export const harnessIntegrations = defineHarnessConfig([
  {
    slug: 'acme-status',
    name: 'Acme Status',
    description: 'Acme Status monitors, connected with an API key.',
    definition: asHarnessDefinition(definition),
    widgets: [],
    fixtures: {
      default: [{ request: `GET ${API_ORIGIN}/v1/monitors`, response: { monitors: MONITORS } }],
      empty: [{ request: `GET ${API_ORIGIN}/v1/monitors`, response: { monitors: [] } }],
    },
    live: { seeds: [] },
  },
]);
