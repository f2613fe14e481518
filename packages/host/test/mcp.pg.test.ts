// The MCP suite again on the real PostgreSQL server, and two host instances on one database
// answering one 2026-07-28 client's requests alternately: listing, and a confirmation asked by
// one instance and honoured (once) by the other.
import { randomBytes } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../src/createHost.js';
import { pgSchema, runSuitesOnPostgres, startTestHost, type TestHost } from './_host.js';
import { testDatabase } from './_postgres.js';

const { url: baseUrl, skipped } = testDatabase();

if (baseUrl) {
  runSuitesOnPostgres(baseUrl);
  await import('./mcp.test.js');
  // OAuth for MCP clients (grants, codes and tokens in PostgreSQL).
  await import('./mcpOAuth.test.js');

  describe('/mcp on two host instances sharing one PostgreSQL database', () => {
    const env = { PLATFORM_SECRET_KEY: randomBytes(32).toString('base64') };
    let schema: Awaited<ReturnType<typeof pgSchema>>;
    let first: TestHost;
    let second: Host;
    const servers: HttpServer[] = [];
    const bases: string[] = [];

    beforeAll(async () => {
      schema = await pgSchema(baseUrl, 'mcp_two');
      first = await startTestHost({ databaseUrl: schema.url, env, projects: ['tools'] });
      second = await createHost({ databaseUrl: schema.url, env, logger: pino({ level: 'silent' }) });
      for (const host of [first, second]) {
        const server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as HttpServer;
        await new Promise((resolve) => server.once('listening', resolve));
        servers.push(server);
        bases.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      }
    });
    afterAll(async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await second?.close();
      await first?.close();
      await schema?.drop();
    });

    it('answers one client whose requests alternate between the instances', async () => {
      const answered: string[] = [];
      let turn = 0;
      // Each request goes to the other instance than the one before.
      const alternating: typeof fetch = (input, init) => {
        const target = new URL(input instanceof Request ? input.url : String(input));
        const base = new URL(bases[turn++ % 2]!);
        target.host = base.host;
        answered.push(base.port);
        return fetch(target, init);
      };
      const client = new Client(
        { name: 'test-assistant', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      client.setRequestHandler('elicitation/create', async () => ({
        action: 'accept',
        content: { confirm: true },
      }));
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${bases[0]}/mcp?accountId=${first.accountId}`), {
          fetch: alternating,
          requestInit: { headers: { authorization: `Bearer ${first.token}` } },
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('test_tools_add_note');
        const added = await client.callTool({ name: 'test_tools_add_note', arguments: { title: 'Across' } });
        expect(added.isError).toBeFalsy();
        expect(added.structuredContent).toEqual({ id: 'n1', title: 'Across' });
        const found = await client.callTool({
          name: 'test_tools_search_notes',
          arguments: { text: 'Across' },
        });
        expect(found.structuredContent).toEqual({ notes: [{ id: 'n1', title: 'Across' }] });
      } finally {
        await client.close();
      }
      expect(new Set(answered).size).toBe(2);
    });
  });
} else {
  describe(`/mcp on PostgreSQL (skipped: ${skipped})`, () => {
    it.skip('the MCP suite, OAuth for MCP clients, and two instances answering one client', () => {});
  });
}
