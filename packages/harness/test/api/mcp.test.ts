// The harness's /mcp driven by the official clients over real HTTP on loopback, as the host's is:
// the 2026-07-28 client (v2, pinned) and the 2025-era `@modelcontextprotocol/sdk` client. Listing,
// calling, every confirmation path, failures, and the variant the URL picks.
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HarnessRegistryEntry } from '@platform/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, send } from './_helpers.js';
import { toolsDefinition } from './_toolsIntegration.js';

const entry: HarnessRegistryEntry = {
  slug: 'tool-notes',
  name: 'Tool Notes',
  description: 'Notes for models',
  widgets: [],
  definition: toolsDefinition,
};

let server: HttpServer;
let base: string;
let lines: string[];
let handlers: Awaited<ReturnType<typeof harness>>['handlers'];
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  ({ handlers, lines } = await harness([entry]));
  server = serve({ fetch: handlers.fetch, port: 0, hostname: '127.0.0.1' }) as HttpServer;
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(opened.map((client) => client.close().catch(() => {})));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> };
const yes: Answer = { action: 'accept', content: { confirm: true } };

async function modernClient(options: { answer?: (message: string) => Answer; query?: string } = {}) {
  const client = new Client(
    { name: 'test-assistant', version: '1.0.0' },
    {
      capabilities: options.answer === undefined ? {} : { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  if (options.answer !== undefined) {
    const answer = options.answer;
    client.setRequestHandler('elicitation/create', async (request) =>
      answer((request.params as { message: string }).message),
    );
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp${options.query ?? ''}`)));
  opened.push(client);
  return client;
}

async function legacyClient(options: { answer?: (message: string) => Answer } = {}) {
  const client = new LegacyClient(
    { name: 'test-assistant-2025', version: '1.0.0' },
    { capabilities: options.answer === undefined ? {} : { elicitation: {} } },
  );
  if (options.answer !== undefined) {
    const answer = options.answer;
    client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
  }
  await client.connect(new LegacyTransport(new URL(`${base}/mcp`)));
  opened.push(client);
  return client;
}

const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content as { type: string; text: string }[] | undefined) ?? [])
    .map((part) => part.text)
    .join('');

describe('harness /mcp: tools/list', () => {
  it('lists the tools as the host does, to both clients, without signing in', async () => {
    for (const client of [await modernClient(), await legacyClient()]) {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'tool_notes_add_note',
        'tool_notes_crash',
        'tool_notes_delete_notes',
        'tool_notes_refuse',
        'tool_notes_search_notes',
      ]);
      const deleteNotes = tools.find((tool) => tool.name === 'tool_notes_delete_notes');
      expect(deleteNotes).toMatchObject({
        title: 'tool-notes: delete_notes',
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
        _meta: {
          'platform/effect': 'destructive',
          'platform/sensitivity': 'high',
          'platform/integration': 'tool-notes',
        },
      });
    }
  });
});

describe('harness /mcp: tools/call', () => {
  it('runs a read at once, with structuredContent and the same JSON as text', async () => {
    const client = await modernClient();
    const result = await client.callTool({ name: 'tool_notes_search_notes', arguments: { text: 'zzz' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ notes: [] });
    expect(JSON.parse(textOf(result))).toEqual({ notes: [] });
  });

  it('asks before a write (2026-07-28) with the host prompt, runs it on yes, not on no', async () => {
    const asked: string[] = [];
    const client = await modernClient({
      answer: (message) => {
        asked.push(message);
        return asked.length === 1 ? yes : { action: 'decline' };
      },
    });
    const ran = await client.callTool({ name: 'tool_notes_add_note', arguments: { title: 'From a model' } });
    expect(asked[0]).toBe(
      'tool-notes wants to run "add_note" with {"title":"From a model"}. It changes data. Run it?',
    );
    expect(ran.isError).toBeFalsy();
    expect(ran.structuredContent).toMatchObject({ title: 'From a model' });
    const declined = await client.callTool({ name: 'tool_notes_add_note', arguments: { title: 'Not this' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toBe('Not run: "tool_notes_add_note" was not confirmed.');
    // The Tools surface's state is the same: the first note is there, the declined one not.
    const stored = await send(handlers, 'GET', '/api/integrations/tool-notes/storage?keys=cache/notes');
    expect(stored.body.data['cache/notes'].map((note: { title: string }) => note.title)).toEqual([
      'From a model',
    ]);
  });

  it('asks a 2025-era client through elicitation/create; a destructive prompt says it cannot be undone', async () => {
    const asked: string[] = [];
    const client = await legacyClient({
      answer: (message) => {
        asked.push(message);
        return { action: 'cancel' };
      },
    });
    const result = await client.callTool({ name: 'tool_notes_delete_notes', arguments: {} });
    expect(asked[0]).toContain('It destroys data and cannot be undone.');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('was not confirmed');
  });

  it('refuses, not runs, a tool that needs confirmation for a client without elicitation', async () => {
    for (const client of [await modernClient(), await legacyClient()]) {
      const result = await client.callTool({ name: 'tool_notes_add_note', arguments: { title: 'x' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('does not support elicitation');
    }
  });

  it('answers bad input, refusals and bugs as isError; an unknown tool as -32602', async () => {
    const client = await modernClient();
    const invalid = await client.callTool({ name: 'tool_notes_search_notes', arguments: { text: 7 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('text');
    const refused = await client.callTool({ name: 'tool_notes_refuse', arguments: {} });
    expect(textOf(refused)).toBe('The notes service is in maintenance.');
    const crashed = await client.callTool({ name: 'tool_notes_crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).not.toContain('hunter2');
    expect(lines.some((line) => line.includes('/mcp tool_notes_crash') && !line.includes('hunter2'))).toBe(
      true,
    );
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('runs on the variant the URL names', async () => {
    const asked = () => yes;
    const empty = await modernClient({ answer: asked, query: '?variant=empty' });
    await empty.callTool({ name: 'tool_notes_add_note', arguments: { title: 'Only in empty' } });
    const found = await empty.callTool({ name: 'tool_notes_search_notes', arguments: { text: 'Only' } });
    expect(found.structuredContent).toEqual({ notes: [{ id: 'n1', title: 'Only in empty' }] });
    const inDefault = await (await modernClient()).callTool({
      name: 'tool_notes_search_notes',
      arguments: { text: 'Only' },
    });
    expect(inDefault.structuredContent).toEqual({ notes: [] });
    const wrong = await fetch(`${base}/mcp?variant=nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(wrong.status).toBe(400);
  });

  it('answers loopback hosts only', async () => {
    const answer = await send(handlers, 'POST', '/mcp', {
      base: 'http://evil.example',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(answer.status).toBe(403);
  });
});
