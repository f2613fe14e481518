import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { startTestHost } from '../packages/host/test/_host.js';
import { CONNECTIONS, DURATION_S, load, WARM_UP_S } from './_load.js';

/**
 * `tools/call` through `/mcp` (2026-07-28, stateless: one POST per call) against the actions route
 * running the same handler (`search_notes` and `search-notes` of the tools fixture), one host, same
 * run. Issue 47's goal: at least 0.8x the route's requests per second, p50 within 1.5x.
 */
export async function benchMcpTools(): Promise<void> {
  const host = await startTestHost({
    logger: pino({ level: 'silent' }),
    projects: ['tools'],
    limits: { ratePerUser: 1e9, ratePerAccount: 1e9 },
  });
  const server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const auth = { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' };
  await host.call(`/api/integrations/test-tools/actions/add-note?accountId=${host.accountId}`, {
    json: { title: 'one' },
  });

  const actionUrl = `${base}/api/integrations/test-tools/actions/search-notes?accountId=${host.accountId}`;
  const action = { headers: auth, body: JSON.stringify({ text: 'o' }) };
  const mcpUrl = `${base}/mcp?accountId=${host.accountId}`;
  const mcp = {
    headers: {
      ...auth,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'test_tools_search_notes',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'test_tools_search_notes',
        arguments: { text: 'o' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  };
  // The answer must be the tool's result, not an error, or the figures measure a refusal.
  const probe = await fetch(mcpUrl, { method: 'POST', headers: mcp.headers, body: mcp.body });
  const answer = (await probe.json()) as { result?: { isError?: boolean; structuredContent?: unknown } };
  if (!probe.ok || answer.result?.isError === true || answer.result?.structuredContent === undefined) {
    throw new Error(`tools/call answered ${probe.status} ${JSON.stringify(answer)}`);
  }

  await load('warm-up', actionUrl, action, WARM_UP_S);
  await load('warm-up', mcpUrl, mcp, WARM_UP_S);
  const routeBefore = await load('actions route search-notes, before', actionUrl, action);
  const tool = await load('/mcp tools/call test_tools_search_notes', mcpUrl, mcp);
  const routeAfter = await load('actions route search-notes, after', actionUrl, action);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await host.close();

  const route = {
    requestsPerSecond: (routeBefore.requestsPerSecond + routeAfter.requestsPerSecond) / 2,
    p50: (routeBefore.p50 + routeAfter.p50) / 2,
  };
  const ratio = tool.requestsPerSecond / route.requestsPerSecond;
  const p50Ratio = tool.p50 / Math.max(route.p50, 0.001);
  console.log(
    `\nTools over MCP against the actions route, same handler, same host (autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each after warm-up; PGlite, isolated runtime; ratios against the mean of the two route runs)`,
  );
  console.log(
    `  ${'target'.padEnd(48)} ${'req/s'.padStart(9)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'non-2xx'.padStart(8)} ${'x route'.padStart(8)}`,
  );
  for (const row of [routeBefore, tool, routeAfter]) {
    console.log(
      `  ${row.name.padEnd(48)} ${Math.round(row.requestsPerSecond).toString().padStart(9)} ${`${row.p50} ms`.padStart(8)} ${`${row.p99} ms`.padStart(8)} ${String(row.non2xx + row.errors).padStart(8)} ${(row.requestsPerSecond / route.requestsPerSecond).toFixed(2).padStart(7)}x`,
    );
    console.log(`    ${row.cpu}`);
  }
  const met = ratio >= 0.8 && p50Ratio <= 1.5 && tool.non2xx === 0;
  console.log(
    `  goal (issue 47): >= 0.80x the route's req/s and p50 <= 1.5x: ${ratio.toFixed(2)}x, p50 ${p50Ratio.toFixed(2)}x: ${met ? 'met' : 'not met'}`,
  );
}
