// The example's harness.config.ts through the harness's own handlers in fixtures mode, with the
// network forbidden: every TCP connect and DNS lookup of this process is refused and recorded, and
// the test fails if any was attempted.
import dns from 'node:dns';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harnessMockContextOptions } from '@platform/harness';
import { createHarnessApiHandlers } from '@platform/harness/api';
import { invokeAction } from '@platform/sdk/runtime';
import { createMockContext } from '@platform/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessIntegrations } from '../../harness.config.js';
import definition from './integration.js';

const attempts: string[] = [];
const refuse = (what: string) => {
  attempts.push(what);
  throw new Error(`network forbidden in this test: ${what}`);
};

let projectDir: string;
let handlers: ReturnType<typeof createHarnessApiHandlers>;
const lines: string[] = [];

// Patched by hand, not with vi.spyOn: the shared test setup restores every spy after each test, and
// this guard must hold for the whole file. TLS sockets connect through the same prototype method.
const originals = {
  connect: net.Socket.prototype.connect,
  lookup: dns.lookup,
  promisesLookup: dns.promises.lookup,
};

beforeAll(async () => {
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    return refuse(`connect ${JSON.stringify(args[0])}`);
  } as typeof net.Socket.prototype.connect;
  dns.lookup = ((host: string) => refuse(`dns.lookup ${host}`)) as unknown as typeof dns.lookup;
  dns.promises.lookup = ((host: string) =>
    refuse(`dns.promises.lookup ${host}`)) as typeof dns.promises.lookup;
  projectDir = await mkdtemp(join(tmpdir(), 'acme-notes-harness-'));
  handlers = createHarnessApiHandlers(harnessIntegrations, {
    projectDir,
    env: {},
    log: (line) => lines.push(line),
    now: () => new Date('2030-01-05T03:00:00Z'),
  });
});

afterAll(async () => {
  net.Socket.prototype.connect = originals.connect;
  dns.lookup = originals.lookup;
  dns.promises.lookup = originals.promisesLookup;
  await rm(projectDir, { recursive: true, force: true });
});

const BASE = 'http://localhost:5173/api/integrations/acme-notes';

async function call(
  method: 'GET' | 'POST',
  path: string,
  variant: 'default' | 'empty' | 'error',
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await handlers.fetch(
    new Request(`${BASE}${path}`, {
      method,
      headers: {
        'x-harness-variant': variant,
        'x-harness-mode': 'fixtures',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: await response.json() };
}

describe('acme-notes in the harness, fixtures mode, network forbidden', () => {
  it('refuses a connection attempt in this process (the guard works)', async () => {
    const before = attempts.length;
    await expect(fetch('http://127.0.0.1:59999/')).rejects.toThrow();
    expect(attempts.length).toBeGreaterThan(before);
    attempts.length = before;
  });

  it('runs the actions: add, list, and sync from the variant fixtures', async () => {
    const added = await call('POST', '/actions/add-note', 'default', { title: 'Buy milk' });
    expect(added).toMatchObject({
      status: 200,
      body: { ok: true, data: { title: 'Buy milk', folder: 'inbox' } },
    });

    const synced = await call('POST', '/actions/sync-notes', 'default', {});
    expect(synced).toMatchObject({ status: 200, body: { ok: true, data: { synced: 2 } } });
    const listed = await call('POST', '/actions/list-notes', 'default', {});
    expect(listed.body.data.map((note: { title: string }) => note.title)).toEqual([
      'Buy milk',
      'Write the changelog',
      'Plan the launch',
    ]);

    expect(await call('POST', '/actions/sync-notes', 'empty', {})).toMatchObject({
      status: 200,
      body: { ok: true, data: { synced: 0 } },
    });
    const failed = await call('POST', '/actions/sync-notes', 'error', {});
    expect(failed).toMatchObject({
      status: 500,
      body: { ok: false, error: { code: 'handler_error', message: 'Action failed.' } },
    });
    expect(failed.body.error.devError.message).toContain('Acme Notes answered 503');
  });

  it('reads storage through the storage bridge, per variant', async () => {
    const read = await call('GET', '/storage?keys=settings,sync_state', 'default');
    expect(read).toMatchObject({
      status: 200,
      body: { ok: true, data: { settings: { defaultFolder: 'inbox', syncEnabled: true } } },
    });
    expect(read.body.data.sync_state).toMatchObject({ remoteCount: 2 });
    const empty = await call('GET', '/storage?keys=sync_state', 'error');
    expect(empty.body.data.sync_state).toBeNull();
  });

  it('fires the signed webhook and the nightly schedule at a chosen virtual time', async () => {
    const payload = {
      type: 'note.updated',
      note: {
        id: '1',
        title: 'Plan the launch (v2)',
        body: '',
        folder: 'inbox',
        created_at: '2026-01-01T09:00:00.000Z',
      },
    };
    const delivered = await call('POST', '/triggers/webhooks/note-changed', 'default', { payload });
    expect(delivered).toMatchObject({
      status: 200,
      body: { ok: true, data: { result: { ok: true }, signature: { verified: true } } },
    });
    expect(JSON.stringify(delivered.body.data.storage.after)).toContain('Plan the launch (v2)');

    const nightly = await call('POST', '/triggers/schedules/nightly-sync', 'empty', {
      at: '2030-01-06T03:00:00Z',
    });
    expect(nightly).toMatchObject({
      status: 200,
      body: { ok: true, data: { scheduleId: 'nightly-sync', result: { ok: true } } },
    });
    expect(nightly.body.data.storage.after.account.sync_state).toMatchObject({ remoteCount: 0 });
  });

  it('refuses a request no fixture answers in a variant left out, names the fixture to add, sends nothing', async () => {
    const entry = harnessIntegrations[0]!;
    const onlyDefault = createHarnessApiHandlers(
      [{ ...entry, fixtures: { default: entry.fixtures!.default! } }],
      {
        projectDir,
        env: {},
        log: (line) => lines.push(line),
      },
    );
    const response = await onlyDefault.fetch(
      new Request(`${BASE}/actions/sync-notes`, {
        method: 'POST',
        headers: { 'x-harness-variant': 'empty', 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    const body = (await response.json()) as { error: { code: string; devError: { message: string } } };
    expect(response.status).toBe(500);
    expect(body.error.code).toBe('handler_error');
    expect(body.error.devError.message).toContain(
      `{ request: 'GET https://api.acme-notes.example/v1/notes', response: {} }`,
    );
    const refusal = lines.find((line) => line.startsWith('[harness] refused GET'));
    expect(refusal).toContain('https://api.acme-notes.example/v1/notes?... (variant empty)');
    expect(refusal).not.toContain('folder=inbox');
  });

  it("gives partners' own tests the same fixtures through createMockContext", async () => {
    const entry = harnessIntegrations[0]!;
    const ctx = createMockContext(definition, harnessMockContextOptions(entry, 'default'));
    const synced = await invokeAction(definition, 'sync-notes', '{}', ctx, { mode: 'production' });
    expect(synced).toMatchObject({ ok: true, data: { synced: 2 } });
    expect(ctx.mock.requests.map((request) => request.url)).toEqual([
      'https://api.acme-notes.example/v1/notes?folder=inbox',
    ]);
    const none = createMockContext(definition, harnessMockContextOptions(entry, 'error'));
    const failed = await invokeAction(definition, 'sync-notes', '{}', none, { mode: 'production' });
    expect(failed).toMatchObject({ ok: false, error: { code: 'handler_error' } });
  });

  it('opened no socket and looked up no name during all of the above', () => {
    expect(attempts).toEqual([]);
  });
});
