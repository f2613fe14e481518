// @vitest-environment happy-dom
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  asHarnessDefinition,
  defineHarnessConfig,
  type HarnessRegistry,
  type HarnessRegistryEntry,
} from '@platform/harness';
import { createHarnessApiHandlers } from '@platform/harness/api';
import { HarnessShell, mountHarnessShell } from '@platform/harness/shell';
import { type FetchFunction, useIntegrationFetch } from '@platform/sdk/hooks';
import { defineIntegration } from '@platform/sdk/integration';
import type { MarketplaceTileProps } from '@platform/ui';
import { useQuery } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const API = 'https://api.acme.com';

const NoteChanged = z.object({
  type: z.enum(['note.created', 'note.deleted']),
  note: z.object({ id: z.string(), title: z.string().min(1) }),
});

const definition = asHarnessDefinition(
  defineIntegration({
    slug: 'acme-notes',
    egress: [API],
    storage: { account: { 'cache/last': z.string() } },
    actions: {
      'add-note': {
        description: 'Adds a note',
        input: z.object({ title: z.string() }),
        handler: async (_ctx, input) => ({ id: 'n1', title: input.title }),
      },
    },
    webhooks: [
      {
        id: 'note-changed',
        description: 'Acme note events',
        payloadSchema: NoteChanged,
        signature: {
          header: 'Acme-Signature',
          secretName: 'ACME_WEBHOOK_SECRET',
          scheme: {
            algorithm: 'sha256',
            format: 'keyed',
            digestKey: 'v1',
            timestampKey: 't',
            signedPayload: '{timestamp}.{body}',
            toleranceSeconds: 300,
          },
        },
        handler: async (ctx, event) => {
          ctx.logger.info(`note ${event.note.id} arrived`);
          await ctx.storage.account.set('cache/last', event.note.title);
        },
      },
      {
        id: 'vendor-events',
        description: 'Standard Webhooks, with a verification challenge',
        payloadSchema: z.object({ type: z.string(), challenge: z.string().optional() }),
        signature: {
          header: 'webhook-signature',
          secretName: 'VENDOR_WEBHOOK_SECRET',
          scheme: {
            format: 'versioned',
            digestKey: 'v1',
            secretEncoding: 'base64',
            timestampHeader: 'webhook-timestamp',
            timestampUnit: 'seconds',
            signedPayload: '{header:webhook-id}.{timestamp}.{body}',
            toleranceSeconds: 300,
          },
        },
        reply: (event) =>
          event.challenge === undefined ? undefined : { body: { challenge: event.challenge } },
        handler: async (ctx, event, request) => {
          ctx.logger.info(`vendor ${event.type} via ${request.headers['x-vendor-topic'] ?? 'no topic'}`);
        },
      },
    ],
    schedules: [
      {
        id: 'nightly-sync',
        cron: '0 3 * * *',
        handler: async (ctx) => {
          ctx.logger.info('nightly sync ran');
        },
      },
    ],
  }),
);

function NotesWidget(): ReactNode {
  const fetch = useIntegrationFetch();
  const notes = useQuery({
    queryKey: ['notes'],
    queryFn: async () => {
      const response = await fetch(`${API}/v1/notes`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as { title: string }[];
    },
  });
  if (notes.isPending) return <p>Loading notes</p>;
  if (notes.isError) return <p>Notes failed: {notes.error.message}</p>;
  return notes.data.length === 0 ? (
    <p>No notes</p>
  ) : (
    <ul>
      {notes.data.map((note) => (
        <li key={note.title}>{note.title}</li>
      ))}
    </ul>
  );
}

function GreetingWidget(): ReactNode {
  const me = useQuery<{ name: string }>({ queryKey: ['me'] });
  const fetch = useIntegrationFetch();
  const tags = useQuery({
    queryKey: ['tags'],
    queryFn: async () => (await fetch(`${API}/v1/tags?token=t0p`)).json(),
  });
  return (
    <p>
      Hello {me.data?.name ?? 'nobody'}
      {tags.isError ? ' (no tags)' : ''}
    </p>
  );
}

function Tile({ name, isActivated, onActivate }: MarketplaceTileProps): ReactNode {
  return (
    <div>
      <p>
        {name} tile, {isActivated ? 'active' : 'inactive'}
      </p>
      <button type="button" onClick={onActivate}>
        Activate {name}
      </button>
    </div>
  );
}

const acme: HarnessRegistryEntry = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: 'Notes from Acme.',
  definition,
  tile: Tile,
  widgets: [
    { id: 'notes', title: 'Notes', component: NotesWidget, width: 'full', isCollapsible: true },
    {
      id: 'greeting',
      title: 'Greeting',
      component: GreetingWidget,
      seeds: {
        default: [{ queryKey: ['me'], data: { name: 'Ada' } }],
        empty: [{ queryKey: ['me'], data: { name: 'Nobody' } }],
      },
    },
  ],
  fixtures: {
    default: [{ request: 'GET /v1/notes', response: [{ title: 'Plan the launch' }] }],
    empty: [{ request: 'GET /v1/notes', response: [] }],
    error: [{ request: 'GET /v1/notes', status: 503, response: { error: 'down' } }],
  },
  triggerMocks: { secrets: { account: { ACME_WEBHOOK_SECRET: 'whsec_test' } } },
  live: { seeds: [] },
  oauth: {
    connected: { default: true, empty: false },
    setup: {
      consoleUrl: 'https://developer.acme.com/apps',
      consoleLabel: 'Acme developer console',
      notes: ['Register the callback URL with scopes notes:read.'],
    },
  },
};

const plain: HarnessRegistryEntry = {
  slug: 'plain',
  name: 'Plain',
  description: 'An integration with nothing but a broken widget.',
  widgets: [
    {
      id: 'broken',
      title: 'Broken',
      component: () => {
        throw new Error('the widget broke');
      },
    },
    { id: 'fine', title: 'Fine', component: () => <p>Still here</p> },
  ],
};

const registry: HarnessRegistry = defineHarnessConfig([acme, plain]);

let projectDir: string;
let serverLines: string[];
let server: FetchFunction;

beforeEach(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'harness-shell-'));
  serverLines = [];
  const handlers = createHarnessApiHandlers(registry, {
    projectDir,
    env: {},
    log: (line) => serverLines.push(line),
    now: () => new Date('2030-01-02T03:04:05Z'),
  });
  // The real server half stands for the network: same origin as the page.
  server = (input, init) => handlers.fetch(input instanceof Request ? input : new Request(input, init));
  window.history.replaceState(null, '', '/');
  // The toolbar is kept per tab: every test starts as a new tab.
  window.sessionStorage.clear();
});

afterEach(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

function renderShell(path = '/') {
  window.history.replaceState(null, '', path);
  return render(<HarnessShell registry={registry} fetch={server} />);
}

const select = (label: string, value: string) =>
  act(() => {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  });

describe('HarnessShell: index and routing', () => {
  it('lists every entry with its description and links to its surfaces', async () => {
    renderShell('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Integrations' })).toBeTruthy();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 2, name: 'Acme Notes' })).toBeTruthy();
    expect(within(main).getByText('Notes from Acme.')).toBeTruthy();
    const surfaces = within(main).getByRole('list', { name: 'Acme Notes surfaces' });
    expect(within(surfaces).getByRole('link', { name: 'Triggers' }).getAttribute('href')).toBe(
      '/acme-notes/triggers',
    );
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Integrations' })).toBeTruthy();
  });

  it('navigates in place through real links, to a widget rendered with its seeds and fixtures', async () => {
    vi.mocked(console.warn).mockImplementation(() => {});
    renderShell('/');
    fireEvent.click(
      within(screen.getByRole('list', { name: 'Acme Notes surfaces' })).getByRole('link', {
        name: /Widgets/,
      }),
    );
    expect(window.location.pathname).toBe('/acme-notes/widgets');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Notes' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Widgets' })).toBeTruthy();

    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Widgets' })).getByRole('link', { name: 'Greeting' }),
    );
    expect(window.location.pathname).toBe('/acme-notes/widgets/greeting');
    expect(await screen.findByText(/Hello Ada/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Notes' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Greeting' })).toBeTruthy();
  });
});

describe('HarnessShell: widgets', () => {
  beforeEach(() => {
    vi.mocked(console.warn).mockImplementation(() => {});
  });

  it('lays widgets out by width, in the widget chrome, and remounts them on a variant switch', async () => {
    renderShell('/acme-notes/widgets');
    expect(await screen.findByText('Plan the launch')).toBeTruthy();
    expect(await screen.findByText(/Hello Ada/)).toBeTruthy();
    expect(screen.getByTestId('widget-notes').className).toContain('harness-grid__item--full');
    expect(screen.getByTestId('widget-greeting').className).toContain('harness-grid__item--half');
    // The chrome's collapse toggle, from isCollapsible.
    expect(
      within(screen.getByRole('region', { name: 'Notes' })).getAllByRole('button').length,
    ).toBeGreaterThan(0);

    select('Variant', 'empty');
    expect(await screen.findByText('No notes')).toBeTruthy();
    expect(await screen.findByText(/Hello Nobody/)).toBeTruthy();
    select('Variant', 'error');
    expect(await screen.findByText(/Notes failed/)).toBeTruthy();
    expect(await screen.findByText(/Hello nobody/)).toBeTruthy();
  });

  it('catches a widget’s render error in its slot and keeps the page working', async () => {
    const consoleError = vi.mocked(console.error).mockImplementation(() => {});
    renderShell('/plain/widgets');
    const broken = screen.getByRole('region', { name: 'Broken' });
    const alert = within(broken).getByRole('alert');
    expect(alert.textContent).toContain('the widget broke');
    expect(within(alert).getByText('Stack')).toBeTruthy();
    expect(screen.getByText('Still here')).toBeTruthy();
    expect(consoleError).toHaveBeenCalled();
  });

  it('logs answered and refused requests, with the fixture literal to add', async () => {
    renderShell('/acme-notes/widgets');
    expect(await screen.findByText('Plan the launch')).toBeTruthy();
    const log = screen.getByRole('region', { name: 'Request log' });
    await waitFor(() => expect(within(log).getByText(`fixture GET /v1/notes → 200`)).toBeTruthy());
    await waitFor(() => expect(within(log).getByText(`${API}/v1/tags?...`)).toBeTruthy());
    expect(within(log).getByText(`{ request: 'GET /v1/tags', response: {} }`)).toBeTruthy();
    expect(log.textContent).not.toContain('t0p');
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('[harness] refused GET'));
  });
});

describe('HarnessShell: toolbar', () => {
  it('offers Live API only with a live block, and Record only in live mode', async () => {
    vi.mocked(console.warn).mockImplementation(() => {});
    renderShell('/plain/tile');
    const plainModes = within(screen.getByLabelText('Data mode')).getAllByRole('option');
    expect(plainModes.map((option) => option.textContent)).toEqual(['Fixtures']);
    fireEvent.click(screen.getByRole('link', { name: 'Acme Notes' }));
    const modes = within(await screen.findByLabelText('Data mode')).getAllByRole('option');
    expect(modes.map((option) => option.textContent)).toEqual(['Fixtures', 'Live API']);
    expect(screen.queryByLabelText('Record')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Marketplace tile' }));
    select('Data mode', 'live');
    expect(screen.getByLabelText('Record')).toBeTruthy();
  });
});

describe('HarnessShell: tile', () => {
  it('renders the tile with marketplace props; Activate opens the Activation surface', async () => {
    renderShell('/acme-notes/tile');
    expect(screen.getByRole('heading', { level: 2, name: 'Marketplace tile' })).toBeTruthy();
    expect(screen.getByText('Acme Notes tile, inactive')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Activate Acme Notes' }));
    expect(window.location.pathname).toBe('/acme-notes/activation');
    expect(await screen.findByRole('heading', { level: 2, name: 'Activation' })).toBeTruthy();
  });

  it('says so when no tile is registered', () => {
    renderShell('/plain/tile');
    expect(screen.getByText('No marketplace tile is registered for Plain.')).toBeTruthy();
  });
});

describe('HarnessShell: activation', () => {
  it('shows the setup notes and the connected state per variant', async () => {
    renderShell('/acme-notes/activation');
    expect(screen.getByRole('link', { name: 'Acme developer console' }).getAttribute('href')).toBe(
      'https://developer.acme.com/apps',
    );
    expect(screen.getByText('Register the callback URL with scopes notes:read.')).toBeTruthy();
    expect(screen.getByText(`${location.origin}/api/integrations/acme-notes/oauth/callback`)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('connection-status').textContent).toContain('Connected'));
    select('Variant', 'empty');
    await waitFor(() =>
      expect(screen.getByTestId('connection-status').textContent).toContain('Not connected'),
    );
  });

  it('in live mode lists the credentials to set, sets one, never shows its value', async () => {
    renderShell('/acme-notes/activation');
    select('Data mode', 'live');
    const secret = await screen.findByLabelText(/ACME_WEBHOOK_SECRET/);
    const row = secret.closest('form') as HTMLFormElement;
    expect(within(row).getByText('Not set')).toBeTruthy();
    fireEvent.change(secret, { target: { value: 'whsec_live_value' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Set ACME_WEBHOOK_SECRET' }));
    expect(await within(row).findByText('Set')).toBeTruthy();
    expect((secret as HTMLInputElement).value).toBe('');
    expect(document.body.textContent).not.toContain('whsec_live_value');
    expect(serverLines.join('\n')).toContain('set ACME_WEBHOOK_SECRET');
  });
});

describe('HarnessShell: triggers', () => {
  it('shows the scheme, a valid prefilled payload, fires it and shows result, logs and storage', async () => {
    renderShell('/acme-notes/triggers');
    expect(screen.getByRole('heading', { level: 2, name: 'Triggers' })).toBeTruthy();
    const scheme = screen.getByLabelText('Signature scheme of note-changed');
    expect(scheme.textContent).toContain('HMAC-SHA256');
    expect(scheme.textContent).toContain('{timestamp}.{body}');
    expect(scheme.textContent).toContain('keyed');
    expect(scheme.textContent).toContain('±300 s');

    const payload = screen.getByLabelText('Payload of note-changed (JSON)') as HTMLTextAreaElement;
    expect(JSON.parse(payload.value)).toEqual({
      type: 'note.created',
      note: { id: 'example', title: 'example' },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Fire note-changed' }));
    const result = await screen.findByRole('region', { name: 'Result of note-changed' });
    expect(within(result).getByText('Handler succeeded')).toBeTruthy();
    expect(within(result).getByRole('list', { name: 'Logs' }).textContent).toContain('note example arrived');
    expect(within(result).getByTestId('storage-before').textContent).not.toContain('cache/last');
    expect(JSON.parse(within(result).getByTestId('storage-after').textContent ?? '{}')).toMatchObject({
      account: { 'cache/last': 'example' },
    });
    expect(result.textContent).toContain('ACME_WEBHOOK_SECRET');
    const log = screen.getByRole('region', { name: 'Request log' });
    await waitFor(() => expect(log.textContent).toContain('/triggers/webhooks/note-changed'));
  });

  it('shows a versioned scheme and a reply; answers a challenge at once and sends extra headers otherwise', async () => {
    renderShell('/acme-notes/triggers');
    const scheme = screen.getByLabelText('Signature scheme of vendor-events');
    expect(scheme.textContent).toContain('versioned (space-separated v1,<digest> entries)');
    expect(scheme.textContent).toContain('{header:webhook-id}.{timestamp}.{body}');
    expect(scheme.textContent).toContain('header webhook-timestamp (seconds)');
    expect(scheme.textContent).toContain('base64 (a whsec_ prefix is dropped)');
    expect(screen.getByText('Replies at once (reply): a reply is not queued')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Payload of vendor-events (JSON)'), {
      target: { value: '{ "type": "endpoint.verify", "challenge": "c-42" }' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Fire vendor-events' }));
    const replied = await screen.findByRole('region', { name: 'Result of vendor-events' });
    expect(replied.textContent).toContain('Replied at once (HTTP 200), not queued');
    expect(within(replied).getByTestId('reply-body').textContent).toBe('{"challenge":"c-42"}');

    fireEvent.change(screen.getByLabelText('Payload of vendor-events (JSON)'), {
      target: { value: '{ "type": "invoice.paid" }' },
    });
    fireEvent.change(screen.getByLabelText('Extra headers of vendor-events (JSON object)'), {
      target: { value: '{ "X-Vendor-Topic": "billing", "Authorization": "Bearer hidden" }' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Fire vendor-events' }));
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Result of vendor-events' }).textContent).toContain(
        'Handler succeeded',
      ),
    );
    const delivered = screen.getByRole('region', { name: 'Result of vendor-events' });
    expect(within(delivered).getByRole('list', { name: 'Logs' }).textContent).toContain(
      'vendor invoice.paid via billing',
    );
    const seen = within(delivered).getByTestId('request-headers').textContent ?? '';
    expect(seen).toContain('webhook-id');
    expect(seen).not.toContain('hidden');
  });

  it('shows a payload the schema refuses with its issues', async () => {
    renderShell('/acme-notes/triggers');
    fireEvent.change(screen.getByLabelText('Payload of note-changed (JSON)'), {
      target: { value: '{ "type": "note.created", "note": { "id": "1", "title": "" } }' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Fire note-changed' }));
    const result = await screen.findByRole('region', { name: 'Result of note-changed' });
    expect(within(result).getByRole('alert').textContent).toContain('invalid_payload');
    expect(within(result).getByRole('list', { name: 'Validation issues' }).textContent).toContain(
      'note.title',
    );
  });

  it('lists the next five fire times and runs the schedule at a virtual time', async () => {
    renderShell('/acme-notes/triggers');
    const times = within(screen.getByRole('list', { name: 'Next fire times of nightly-sync' })).getAllByRole(
      'listitem',
    );
    expect(times).toHaveLength(5);
    for (const time of times) expect(time.textContent).toMatch(/T03:00:00\.000Z$/);
    fireEvent.change(screen.getByLabelText('Virtual time of nightly-sync (UTC)'), {
      target: { value: '2031-02-03T03:00' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Fire nightly-sync' }));
    const result = await screen.findByRole('region', { name: 'Result of nightly-sync' });
    expect(result.textContent).toContain('virtual time 2031-02-03T03:00:00.000Z');
    expect(within(result).getByRole('list', { name: 'Logs' }).textContent).toContain('nightly sync ran');
  });
});

describe('mountHarnessShell', () => {
  it('renders the shell into a root element', async () => {
    const root = document.createElement('div');
    document.body.append(root);
    let reactRoot: ReturnType<typeof mountHarnessShell> | undefined;
    await act(async () => {
      reactRoot = mountHarnessShell({ registry, root, fetch: server });
    });
    expect(root.querySelector('h1')?.textContent).toBe('Integrations');
    act(() => reactRoot?.unmount());
    root.remove();
  });
});

describe('the toolbar kept per tab', () => {
  it('reopens with what this tab chose for the entry, and ignores what no longer fits', async () => {
    const { readSavedToolbar, saveToolbar } = await import('./_savedToolbar.js');
    const store = new Map<string, string>();
    const storage = {
      getItem: (name: string) => store.get(name) ?? null,
      setItem: (name: string, value: string) => void store.set(name, value),
    };
    const entry = { slug: 'acme', live: {} };
    expect(readSavedToolbar(entry, storage)).toEqual({ variant: 'default', mode: 'fixtures', record: false });
    saveToolbar('acme', { variant: 'empty', mode: 'live', record: true }, storage);
    expect(readSavedToolbar(entry, storage)).toEqual({ variant: 'empty', mode: 'live', record: true });
    // Without a live block the saved live mode falls back to fixtures; junk falls back entirely.
    expect(readSavedToolbar({ slug: 'acme' }, storage)).toEqual({
      variant: 'empty',
      mode: 'fixtures',
      record: false,
    });
    store.set('platform-harness:toolbar:acme', '{"variant":"nope","mode":"fixtures"}');
    expect(readSavedToolbar(entry, storage).variant).toBe('default');
    store.set('platform-harness:toolbar:acme', 'not json');
    expect(readSavedToolbar(entry, storage).variant).toBe('default');
  });
});
