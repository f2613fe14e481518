import { asHarnessDefinition, defineHarnessConfig, harnessWidgetsFromDefinition } from '@platform/harness';
import definition from './src/acme-notes/integration.js';
import { ACCESS_TOKEN_SECRET, API_ORIGIN } from './src/acme-notes/syncNotes.js';

// Fixtures mode (the default) answers every request from here, per variant; nothing reaches the
// network. The definition has two egress origins, so vendor fixtures name theirs in full.
// `sync-notes` (board widget, triggers) and the recent-notes widget both read this one.
const listNotes = `GET ${API_ORIGIN}/v1/notes`;
const vendorNote = (id: string, title: string, folder = 'inbox') => ({
  id,
  title,
  body: '',
  folder,
  created_at: `2026-01-0${id}T09:00:00.000Z`,
});

export const harnessIntegrations = defineHarnessConfig([
  {
    slug: 'acme-notes',
    name: 'Acme Notes',
    description: 'Notes from Acme Notes, synced nightly; notes written here work offline.',
    definition: asHarnessDefinition(definition),
    widgets: harnessWidgetsFromDefinition(definition, {
      'acme-notes-board': { width: 'full' },
      'acme-notes-recent': { width: 'half' },
    }),
    // What the mock contexts start from: a connected, syncing account.
    triggerMocks: {
      storage: { account: { settings: { defaultFolder: 'inbox', syncEnabled: true } } },
      secrets: {
        account: {
          [ACCESS_TOKEN_SECRET]: 'fixture-access-token',
          ACME_NOTES_WEBHOOK_SECRET: 'whsec_fixture',
        },
      },
    },
    fixtures: {
      default: [
        {
          request: listNotes,
          response: { notes: [vendorNote('1', 'Plan the launch'), vendorNote('2', 'Write the changelog')] },
        },
      ],
      empty: [{ request: listNotes, response: { notes: [] } }],
      error: [{ request: listNotes, status: 503, response: { error: 'unavailable' } }],
    },
    // Live mode: the real API under the definition's egress, client credentials from
    // .platform/local-secrets.json (the Activation surface writes it).
    live: { seeds: [] },
    oauth: {
      connected: { default: true, empty: false, error: true },
      setup: {
        consoleLabel: 'Acme Notes developer console',
        notes: [
          'Register the callback URL the Activation surface shows, with scopes notes:read and notes:write.',
        ],
      },
    },
  },
]);
