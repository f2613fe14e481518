import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bodyLimit } from '../src/routes/_bodyLimit.js';

// The one body limit of the actions, webhook and upload routes, through a real node server: a
// declared Content-Length over the limit is refused unread, a chunked body is counted as it streams.
let server: Server;
let base: string;
const seen: string[] = [];
beforeAll(async () => {
  const app = new Hono();
  app.post('/echo', bodyLimit({ maxSize: 16, onError: (c) => c.json({ refused: true }, 413) }), async (c) => {
    const text = await c.req.text();
    seen.push(text);
    return c.json({ length: text.length });
  });
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const chunked = (text: string) =>
  fetch(base, { method: 'POST', body: new Blob([text]).stream(), duplex: 'half' } as RequestInit);

it('reads a body within the limit, with a Content-Length or chunked', async () => {
  const declared = await fetch(base, { method: 'POST', body: 'x'.repeat(16) });
  expect(await declared.json()).toEqual({ length: 16 });
  const streamed = await chunked('y'.repeat(16));
  expect(await streamed.json()).toEqual({ length: 16 });
});

it('refuses a declared length over the limit before the handler, and a chunked body as it passes it', async () => {
  seen.length = 0;
  const declared = await fetch(base, { method: 'POST', body: 'x'.repeat(17) });
  expect(declared.status).toBe(413);
  expect(await declared.json()).toEqual({ refused: true });
  const streamed = await chunked('y'.repeat(17));
  expect(streamed.status).toBe(413);
  expect(seen).toEqual([]);
});
