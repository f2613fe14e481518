import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarnessApiHandlers, type LiveFetch } from '@platform/harness/api';
import { parseDefinition } from '@platform/integration-schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessIntegrations, MONITORS } from '../../harness.config.js';
import definition, { API_ORIGIN } from './integration.js';

// The made-up vendor: one valid key at a time (rotation revokes the old one), and what reached it.
const vendor = { validKey: 'key-one', seen: [] as string[] };
const liveFetch: LiveFetch = async (request) => {
  const authorization = request.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? '';
  vendor.seen.push(`${request.method} ${new URL(request.url).pathname} ${authorization}`);
  const ok = authorization === `Bearer ${vendor.validKey}`;
  const body = !ok
    ? { error: 'invalid api key' }
    : request.url.endsWith('/v1/account')
      ? { account: 'acme' }
      : { monitors: [{ id: 'm9', name: 'Live', status: 'up' }] };
  return {
    status: ok ? 200 : 401,
    statusText: ok ? 'OK' : 'Unauthorized',
    headers: [['content-type', 'application/json']],
    body: Buffer.from(JSON.stringify(body)).toString('base64'),
  };
};

let projectDir: string;
let handlers: ReturnType<typeof createHarnessApiHandlers>;
const LIVE = { 'x-harness-mode': 'live', 'content-type': 'application/json' };

beforeEach(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'acme-status-'));
  vendor.validKey = 'key-one';
  vendor.seen = [];
  handlers = createHarnessApiHandlers(harnessIntegrations, { projectDir, env: {}, log: () => {}, liveFetch });
});
afterEach(() => rm(projectDir, { recursive: true, force: true }));

async function call(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  headers: Record<string, string> = LIVE,
) {
  const response = await handlers.fetch(
    new Request(`http://localhost:5173/api/integrations/acme-status/${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: await response.json() };
}

describe('acme-status', () => {
  it('is a valid definition with an apiKey connection on its egress origin', () => {
    expect(parseDefinition(definition).ok).toBe(true);
    expect(definition.connection?.authorization?.origins).toEqual([API_ORIGIN]);
  });

  it('lists the fixture monitors in fixtures mode', async () => {
    const listed = await call('POST', 'actions/list-monitors', {}, { 'content-type': 'application/json' });
    expect(listed.body).toEqual({ ok: true, data: MONITORS });
  });

  it('is set up on the activation, verified, used and its key rotated by the owner (live mode)', async () => {
    expect((await call('GET', 'connection')).body.data.connected).toBe(false);

    // A wrong key: verify answers 401, nothing is kept.
    const wrong = await call('PUT', 'connection', { fields: { apiKey: 'not-a-key' } });
    expect(wrong.status).toBe(422);
    expect((await call('GET', 'connection')).body.data.connected).toBe(false);

    // The right one: verified with the declared header, kept, then sent by ctx.fetch.
    expect((await call('PUT', 'connection', { fields: { apiKey: 'key-one' } })).body.data.connected).toBe(
      true,
    );
    const used = await call('POST', 'actions/list-monitors', {});
    expect(used.body).toEqual({ ok: true, data: [{ id: 'm9', name: 'Live', status: 'up' }] });
    expect(vendor.seen.at(-1)).toBe('GET /v1/monitors Bearer key-one');

    // Rotation: the vendor revokes the old key; the owner enters the new one.
    vendor.validKey = 'key-two';
    expect((await call('POST', 'actions/list-monitors', {})).body.ok).toBe(false);
    expect((await call('PUT', 'connection', { fields: { apiKey: 'key-two' } })).status).toBe(200);
    expect((await call('POST', 'actions/list-monitors', {})).body.ok).toBe(true);
    expect(vendor.seen).toEqual([
      'GET /v1/account Bearer not-a-key',
      'GET /v1/account Bearer key-one',
      'GET /v1/monitors Bearer key-one',
      'GET /v1/monitors Bearer key-one',
      'GET /v1/account Bearer key-two',
      'GET /v1/monitors Bearer key-two',
    ]);
  });
});
