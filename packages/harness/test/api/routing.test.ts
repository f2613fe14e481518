import type { HarnessRegistryEntry } from '@platform/harness';
import { isLoopbackHost } from '@platform/harness/api';
import { describe, expect, it } from 'vitest';
import { harness, send } from './_helpers.js';
import { acmeDefinition } from './_integration.js';

const entry: HarnessRegistryEntry = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: 'Notes',
  widgets: [],
  definition: acmeDefinition(),
};
const other: HarnessRegistryEntry = { slug: 'other', name: 'Other', description: 'x', widgets: [] };

describe('harness API routing', () => {
  it('answers an unknown slug 404 with the declared slugs', async () => {
    const { handlers } = await harness([entry, other]);
    const { status, body } = await send(handlers, 'GET', '/api/integrations/nope/storage?keys=cache/notes');
    expect(status).toBe(404);
    expect(body).toEqual({
      ok: false,
      error: {
        code: 'integration_not_found',
        message: 'No integration "nope" in harness.config.ts; declared: acme-notes, other.',
        slugs: ['acme-notes', 'other'],
      },
    });
  });

  it('answers an unknown route 404 listing the routes', async () => {
    const { handlers } = await harness([entry]);
    const { status, body } = await send(handlers, 'GET', '/api/integrations/acme-notes/nothing');
    expect(status).toBe(404);
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).toContain('POST actions/<name>');
    expect((await send(handlers, 'GET', '/elsewhere')).status).toBe(404);
  });

  it('refuses malformed toolbar headers with 400 naming the allowed values', async () => {
    const { handlers } = await harness([entry]);
    const path = '/api/integrations/acme-notes/storage?keys=cache/notes';
    const variant = await send(handlers, 'GET', path, { headers: { 'x-harness-variant': 'Default' } });
    expect(variant.status).toBe(400);
    expect(variant.body.error).toEqual({
      code: 'invalid_request',
      message:
        'x-harness-variant header "Default" is not a variant; send one of default, empty, error (default default).',
    });
    const mode = await send(handlers, 'GET', path, { headers: { 'x-harness-mode': 'real' } });
    expect(mode.status).toBe(400);
    expect(mode.body.error.message).toBe(
      'x-harness-mode header "real" is not a mode; send one of fixtures, live (default fixtures).',
    );
    const record = await send(handlers, 'GET', path, { headers: { 'x-harness-record': 'yes' } });
    expect(record.status).toBe(400);
    expect(record.body.error.message).toContain('must be 1 (record) or 0');
  });

  it('runs an entry without a live block on fixtures even when live is asked for, and says so', async () => {
    const { handlers } = await harness([entry]);
    const answer = await send(handlers, 'GET', '/api/integrations/acme-notes/storage?keys=cache/notes', {
      headers: { 'x-harness-mode': 'live' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-harness-mode')).toBe('fixtures');
  });

  it('refuses a non-loopback Host with 403 naming PLATFORM_HARNESS_EXPOSE=1, and logs one line', async () => {
    const { handlers, lines } = await harness([entry]);
    const path = '/api/integrations/acme-notes/storage?keys=cache/notes';
    for (const host of ['example.com', '192.168.1.20:5173', 'localhost.evil.com', 'evil.com@localhost']) {
      const { status, body } = await send(handlers, 'GET', path, { headers: { host } });
      expect(status, host).toBe(403);
      expect(body.error.code).toBe('forbidden');
      expect(body.error.message).toContain('PLATFORM_HARNESS_EXPOSE=1');
    }
    expect(lines.filter((line) => line.includes('is not loopback'))).toHaveLength(4);
    for (const host of ['localhost:5173', '127.0.0.1', '127.8.9.10:80', '[::1]:5173', 'LOCALHOST']) {
      expect((await send(handlers, 'GET', path, { headers: { host } })).status, host).toBe(200);
    }
  });

  it('serves any Host when PLATFORM_HARNESS_EXPOSE is 1, and only then', async () => {
    const path = '/api/integrations/acme-notes/storage?keys=cache/notes';
    const exposed = await harness([entry], { env: { PLATFORM_HARNESS_EXPOSE: '1' } });
    expect((await send(exposed.handlers, 'GET', path, { base: 'http://10.0.0.5:5173' })).status).toBe(200);
    const notQuite = await harness([entry], { env: { PLATFORM_HARNESS_EXPOSE: 'true' } });
    expect((await send(notQuite.handlers, 'GET', path, { base: 'http://10.0.0.5:5173' })).status).toBe(403);
  });

  it('isLoopbackHost accepts localhost, 127.0.0.0/8 and [::1] only', () => {
    expect(
      ['localhost', '127.0.0.1:1', '127.255.0.1', '[::1]', '[0:0:0:0:0:0:0:1]:80'].map(isLoopbackHost),
    ).toEqual([true, true, true, true, true]);
    expect(
      ['', '::1', '128.0.0.1', '0.0.0.0', 'localhost/x', 'a@localhost', '[::2]'].map(isLoopbackHost),
    ).toEqual([false, false, false, false, false, false, false]);
  });

  it('refuses a cross-origin POST (403) and a POST that is not JSON (415)', async () => {
    const { handlers, lines } = await harness([entry]);
    const path = '/api/integrations/acme-notes/actions/add-note';
    const foreign = await send(handlers, 'POST', path, {
      body: { title: 'x' },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toContain('https://evil.example');
    const crossSite = await send(handlers, 'POST', path, {
      body: { title: 'x' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const text = await send(handlers, 'POST', path, {
      body: '{"title":"x"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
    const sameOrigin = await send(handlers, 'POST', path, {
      body: { title: 'x' },
      headers: { origin: 'http://localhost:5173' },
    });
    expect(sameOrigin.status).toBe(200);
    expect(lines.filter((line) => line.includes('cross-origin'))).toHaveLength(2);
  });

  it('GET, POST and fetch are the same handler and log one line per call with the query redacted', async () => {
    const { handlers, lines } = await harness([entry]);
    const request = () =>
      new Request('http://localhost/api/integrations/acme-notes/storage?keys=cache/notes&token=s3cret');
    expect((await handlers.GET(request())).status).toBe(200);
    expect((await handlers.POST(request())).status).toBe(200);
    expect(lines).toEqual([
      expect.stringMatching(
        /^\[harness\] GET \/api\/integrations\/acme-notes\/storage\?\.\.\. \(fixtures, default\) -> 200 in \d+ ms$/,
      ),
      expect.stringContaining('GET /api/integrations/acme-notes/storage?... (fixtures, default) -> 200'),
    ]);
    expect(lines.join('\n')).not.toContain('s3cret');
  });
});
