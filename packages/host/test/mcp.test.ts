// The host as an MCP server, driven by the official clients over real HTTP: the 2026-07-28 client
// (v2, pinned) and the 2025-era client (`@modelcontextprotocol/sdk` 1.x). Listing, calling,
// every confirmation path, policies, and two users in two accounts.
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStorage } from '../src/store/storage.js';
import { setToolPolicy } from '../src/store/toolPolicies.js';
import { createAccount } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';

let host: TestHost;
let server: HttpServer;
let base: string;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  host = await startTestHost({ projects: ['tools'], limits: { actionTimeoutMs: 10_000 } });
  server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as HttpServer;
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(opened.map((client) => client.close().catch(() => {})));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await host.close();
});

type Answer = {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean>;
};
interface Asked {
  message: string;
}

function url(accountId = host.accountId): URL {
  return new URL(`${base}/mcp?accountId=${accountId}`);
}

/** A 2026-07-28 client; `answer` set: it supports elicitation and answers with it. */
async function modernClient(
  options: { token?: string; accountId?: string; answer?: (asked: Asked) => Answer } = {},
) {
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
      answer({ message: (request.params as { message: string }).message }),
    );
  }
  await client.connect(
    new StreamableHTTPClientTransport(url(options.accountId), {
      requestInit: { headers: { authorization: `Bearer ${options.token ?? host.token}` } },
    }),
  );
  opened.push(client);
  return client;
}

async function legacyClient(options: { answer?: (asked: Asked) => Answer } = {}) {
  const client = new LegacyClient(
    { name: 'test-assistant-2025', version: '1.0.0' },
    { capabilities: options.answer === undefined ? {} : { elicitation: {} } },
  );
  if (options.answer !== undefined) {
    const answer = options.answer;
    client.setRequestHandler(ElicitRequestSchema, async (request) =>
      answer({ message: request.params.message }),
    );
  }
  await client.connect(
    new LegacyTransport(url(), { requestInit: { headers: { authorization: `Bearer ${host.token}` } } }),
  );
  opened.push(client);
  return client;
}

const textOf = (result: { content?: unknown }) =>
  ((result.content as { type: string; text: string }[] | undefined) ?? []).map((part) => part.text).join('');

describe('/mcp: who may connect', () => {
  it('answers 401 with a Bearer challenge without a token, and refuses the browser cookie', async () => {
    const anonymous = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer realm=".*\/mcp"/);
    expect(await anonymous.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('needs accountId naming an account the user belongs to', async () => {
    const post = (path: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${host.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post('/mcp')).status).toBe(400);
    expect((await post('/mcp?accountId=nobody-here')).status).toBe(404);
    const other = await createAccount(host.db, { slug: `other-${Date.now()}`, name: 'Other' });
    const foreign = await post(`/mcp?accountId=${other.id}`);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: 'forbidden' } });
  });
});

describe('/mcp: malformed requests', () => {
  const post = (body: string) =>
    fetch(url(), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${host.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body,
    });

  it('answers a body that is not JSON with a JSON-RPC parse error, and an oversized one with 413', async () => {
    const broken = await post('{"jsonrpc": "2.0", ');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
    const huge = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    expect(huge.status).toBe(413);
  });
});

describe('/mcp on 2026-07-28', () => {
  it('lists the tools with handlers, with effective names, schemas and annotations, in a stable order', async () => {
    const client = await modernClient();
    const listed = await client.listTools();
    const { tools } = listed;
    // Cacheable for a while, by this client only (its tools are its user's and account's).
    expect(listed).toMatchObject({ ttlMs: 30_000, cacheScope: 'private' });
    expect(tools.map((tool) => tool.name)).toEqual([
      'test_tools_add_note',
      'test_tools_crash',
      'test_tools_delete_notes',
      'test_tools_refuse',
      'test_tools_search_notes',
      'test_tools_star',
    ]);
    const search = tools.find((tool) => tool.name === 'test_tools_search_notes')!;
    expect(search.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    // The declared output, as JSON Schema (the client checks structuredContent against it); a
    // tool that declares none has none.
    expect(search.outputSchema).toMatchObject({
      type: 'object',
      properties: { notes: { type: 'array', items: { type: 'object', required: ['id', 'title'] } } },
      required: ['notes'],
    });
    expect(tools.find((tool) => tool.name === 'test_tools_add_note')!.outputSchema).toBeUndefined();
    expect(search.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(search._meta).toMatchObject({ 'platform/effect': 'read', 'platform/integration': 'test-tools' });
    const destroy = tools.find((tool) => tool.name === 'test_tools_delete_notes')!;
    expect(destroy.annotations).toMatchObject({ destructiveHint: true });
    const add = tools.find((tool) => tool.name === 'test_tools_add_note')!;
    expect(add.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('runs a read without asking and answers structuredContent and the same JSON as text', async () => {
    const client = await modernClient();
    const result = await client.callTool({ name: 'test_tools_search_notes', arguments: { text: 'zzz' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ notes: [] });
    expect(JSON.parse(textOf(result))).toEqual({ notes: [] });
  });

  it('asks before a write, runs it once accepted, and the prompt names the integration, tool and arguments', async () => {
    const asked: string[] = [];
    const client = await modernClient({
      answer: ({ message }) => {
        asked.push(message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const result = await client.callTool({
      name: 'test_tools_add_note',
      arguments: { title: 'From a model' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: 'n1', title: 'From a model' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('test-tools');
    expect(asked[0]).toContain('add_note');
    expect(asked[0]).toContain('From a model');
    const stored = await readStorage(
      host.db,
      { slug: 'test-tools', accountId: host.accountId, scope: 'account', userId: '' },
      ['cache/notes'],
    );
    expect(stored.get('cache/notes')).toEqual([{ id: 'n1', title: 'From a model' }]);
  });

  it('says a destructive tool cannot be undone, and runs nothing when declined or cancelled', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const asked: string[] = [];
      const client = await modernClient({
        answer: ({ message }) => {
          asked.push(message);
          return { action };
        },
      });
      const result = await client.callTool({ name: 'test_tools_delete_notes', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('not confirmed');
      expect(asked[0]).toContain('cannot be undone');
    }
    const stored = await readStorage(
      host.db,
      { slug: 'test-tools', accountId: host.accountId, scope: 'account', userId: '' },
      ['cache/notes'],
    );
    expect(stored.get('cache/notes')).toHaveLength(1);
  });

  it('refuses a write from a client without elicitation, naming how an owner can allow it', async () => {
    const client = await modernClient();
    const result = await client.callTool({ name: 'test_tools_add_note', arguments: { title: 'Unasked' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('--policy allow');
    expect(textOf(result)).toContain('test_tools_add_note');
  });

  it('answers a failing input check with isError naming the field, and the handler does not run', async () => {
    const client = await modernClient({ answer: () => ({ action: 'accept', content: { confirm: true } }) });
    const result = await client.callTool({ name: 'test_tools_add_note', arguments: { title: 5 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('title');
  });

  it('answers a public refusal with its message, and a bug with a generic message and the request id', async () => {
    const client = await modernClient();
    const refused = await client.callTool({ name: 'test_tools_refuse', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('The notes service is in maintenance.');
    const crashed = await client.callTool({ name: 'test_tools_crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/^The tool failed \(request [^)]+\)\.$/);
    expect(textOf(crashed)).not.toContain('hunter2');
  });

  it('answers an unknown tool with JSON-RPC -32602', async () => {
    const client = await modernClient();
    await expect(client.callTool({ name: 'test_tools_nope', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('refuses a forged, replayed or re-targeted confirmation', async () => {
    const post = async (body: unknown) => {
      const response = await fetch(url(), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${host.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'test_tools_add_note',
        },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${response.status}: ${text}`);
      return JSON.parse(text) as { result?: Record<string, unknown>; error?: unknown };
    };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };
    const call = (id: number, args: unknown, extra: Record<string, unknown> = {}) =>
      post({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'test_tools_add_note', arguments: args, _meta: meta, ...extra },
      });
    const first = await call(1, { title: 'Once' });
    expect(first.result?.resultType).toBe('input_required');
    const state = first.result?.requestState as string;
    const yes = { confirm: { action: 'accept', content: { confirm: true } } };
    const changed = await call(2, { title: 'Something else' }, { requestState: state, inputResponses: yes });
    expect(JSON.stringify(changed)).toContain('arguments changed');
    // One character of the sealed body changed: the authentication tag no longer matches.
    const at = state.lastIndexOf('.') + 1;
    const tampered = `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
    const forged = await call(3, { title: 'Once' }, { requestState: tampered, inputResponses: yes });
    expect(JSON.stringify(forged)).toContain('not one this host issued');
    const ran = await call(4, { title: 'Once' }, { requestState: state, inputResponses: yes });
    expect(ran.result?.isError).toBeFalsy();
    const replayed = await call(5, { title: 'Once' }, { requestState: state, inputResponses: yes });
    expect(JSON.stringify(replayed)).toContain('already used');
  });
});

describe('/mcp on 2025-era revisions', () => {
  it('lists and calls, and asks with elicitation/create', async () => {
    const asked: string[] = [];
    const client = await legacyClient({
      answer: ({ message }) => {
        asked.push(message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('test_tools_add_note');
    const read = await client.callTool({ name: 'test_tools_search_notes', arguments: { text: 'From' } });
    expect(read.structuredContent).toMatchObject({ notes: [{ title: 'From a model' }] });
    expect(asked).toHaveLength(0);
    const write = await client.callTool({ name: 'test_tools_add_note', arguments: { title: 'Legacy' } });
    expect(write.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Legacy');
  });

  it('refuses a confirmation-needing call from a client without elicitation', async () => {
    const client = await legacyClient();
    const result = await client.callTool({ name: 'test_tools_delete_notes', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result as { content?: unknown })).toContain('--policy allow');
  });
});

describe('/mcp policies and accounts', () => {
  it('runs an allowed tool without asking, and neither lists nor runs a blocked one', async () => {
    await setToolPolicy(host.db, {
      accountId: host.accountId,
      toolName: 'test_tools_star',
      policy: 'allow',
      userId: host.userId,
    });
    await setToolPolicy(host.db, {
      accountId: host.accountId,
      toolName: 'test_tools_crash',
      policy: 'block',
      userId: host.userId,
    });
    const client = await modernClient();
    const starred = await client.callTool({ name: 'test_tools_star', arguments: { id: 'n1' } });
    expect(starred.structuredContent).toEqual({ starred: ['n1'] });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('test_tools_crash');
    await expect(client.callTool({ name: 'test_tools_crash', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("keeps two users' user storage apart, and serves each account only its own tools", async () => {
    const other = await host.addUser('member');
    const client = await modernClient({ token: other.token });
    const starred = await client.callTool({ name: 'test_tools_star', arguments: { id: 'n9' } });
    expect(starred.structuredContent).toEqual({ starred: ['n9'] });
    const empty = await createAccount(host.db, { slug: `empty-${Date.now()}`, name: 'Empty' });
    const { addMembership } = await import('../src/store/users.js');
    await addMembership(host.db, empty.id, other.userId, 'owner');
    const elsewhere = await modernClient({ token: other.token, accountId: empty.id });
    expect((await elsewhere.listTools()).tools).toEqual([]);
  });
});
