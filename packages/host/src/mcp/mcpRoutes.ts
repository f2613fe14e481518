import {
  createMcpHandler,
  isLegacyRequest,
  type McpRequestContext,
  ProtocolError,
  ProtocolErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import { type Context, Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { hostOrigin } from '../routes/_auth.js';
import { bodyLimit } from '../routes/_bodyLimit.js';
import { errorResponse, RouteError } from '../routes/_errors.js';
import { type McpCaller, mcpCaller } from './_caller.js';
import { LegacySessions } from './_legacySessions.js';
import { confirmation, refusal, runTool } from './callTool.js';
import { accountTools, type CatalogTool, listedTool, needsConfirmation } from './toolCatalog.js';

/** The first revision served statelessly (per-request envelope); earlier ones are 2025-era. */
const MODERN_REVISION = '2026-07-28';

/** How long a 2026-07-28 client may reuse a `tools/list` page (`ttlMs`, `cacheScope: private`). */
export const TOOLS_LIST_TTL_MS = 30_000;

/** Tools per `tools/list` page. */
export const TOOLS_PAGE_SIZE = 100;

/**
 * `POST /mcp?accountId=<id or slug>`: the host as a Model Context Protocol server (Streamable HTTP,
 * the official SDK) for one account: `tools/list` the tools of its activated integrations,
 * `tools/call` them in the isolate as the user. Revision 2026-07-28 is served statelessly (any
 * instance answers any request; confirmations travel sealed in `requestState`); 2025-era clients
 * get a session on the instance that answered their `initialize`, which is how their
 * `elicitation/create` confirmations reach them.
 */
export function mcpRoutes(services: HostServices): Hono {
  const app = new Hono();
  const maxRequestBodySize = services.limits.actionBodyBytes;
  const factory = (context: McpRequestContext) => toolServer(services, callerOf(context));
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    maxRequestBodySize,
    onerror: (error) => services.logger.warn({ err: error }, 'MCP request refused'),
  });
  const sessions = new LegacySessions();

  const tooLarge = () =>
    jsonRpcError(413, -32600, `The body is larger than ${maxRequestBodySize} bytes; send less per request.`);
  app.all('/mcp', bodyLimit({ maxSize: maxRequestBodySize, onError: tooLarge }), async (c) => {
    let caller: McpCaller;
    try {
      caller = await mcpCaller(services, c);
    } catch (error) {
      if (!(error instanceof RouteError)) throw error;
      const response = errorResponse(c, error.status, error.code, error.message, error.extra);
      if (error.status === 401) {
        // RFC 9728 5.1: where a client finds how to get a token; RFC 6750 3: no error code when
        // the request carried no credential.
        const base = hostOrigin(services, c);
        const sent = c.req.header('authorization') !== undefined;
        response.headers.set(
          'WWW-Authenticate',
          `Bearer realm="${base}/mcp", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"${
            sent ? `, error="invalid_token", error_description="${error.message.replaceAll('"', "'")}"` : ''
          }`,
        );
      }
      return response;
    }
    const authInfo = { token: '', clientId: 'platform', scopes: [], extra: { caller } };
    // A POST body is read once, here, on the server's direct path (the SDK then parses nothing and
    // streams nothing): at most `actionBodyBytes` (`bodyLimit`, as the actions route's), then JSON.
    let parsedBody: unknown;
    if (c.req.method === 'POST') {
      const read = await readMcpBody(c);
      if (read instanceof Response) return read;
      parsedBody = read.body;
    }
    // A request naming a 2026-era revision in its header is the modern path's to answer (it owns
    // every refusal of such a request); only the others are classified.
    const revision = c.req.header('mcp-protocol-version');
    const modernHeader = revision !== undefined && revision >= MODERN_REVISION;
    if (!modernHeader && (await isLegacyRequest(c.req.raw, parsedBody, { maxRequestBodySize }))) {
      return sessions.serve(c.req.raw, caller, () => toolServer(services, caller), { authInfo, parsedBody });
    }
    return modern.fetch(c.req.raw, { authInfo, ...(parsedBody === undefined ? {} : { parsedBody }) });
  });
  return app;
}

const jsonRpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });

// The body as JSON, or the JSON-RPC parse error (its size was checked by `bodyLimit` before).
async function readMcpBody(c: Context): Promise<{ body: unknown } | Response> {
  try {
    return { body: JSON.parse(await c.req.text()) as unknown };
  } catch {
    return jsonRpcError(400, -32700, 'Parse error: the body is not JSON; send one JSON-RPC message.');
  }
}

function callerOf(context: McpRequestContext): McpCaller {
  const caller = (context.authInfo?.extra as { caller?: McpCaller } | undefined)?.caller;
  if (caller === undefined) throw new Error('an MCP request reached the server without its caller');
  return caller;
}

/** The account's tools, memoized per instance until a table they come from changes (`cache_epoch`). */
function cachedTools(services: HostServices, accountId: string): Promise<CatalogTool[]> {
  return services.cache.memoize(`mcp-tools:${accountId}`, () => accountTools(services.db, accountId));
}

function toolServer(services: HostServices, caller: McpCaller): Server {
  const server = new Server(
    { name: 'platform-host', version: '1' },
    {
      capabilities: { tools: {} },
      // A client may keep the list this long; it is this user's (policies and activations are per account).
      cacheHints: { 'tools/list': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'private' } },
      instructions: `Tools of the integrations activated in account "${caller.accountSlug}".`,
    },
  );
  server.setRequestHandler('tools/list', async (request) => {
    const tools = (await cachedTools(services, caller.accountId)).filter((tool) => tool.policy !== 'block');
    const after = request.params?.cursor === undefined ? undefined : cursorName(request.params.cursor);
    const start = after === undefined ? 0 : tools.findIndex((tool) => tool.name > after);
    const page = start < 0 ? [] : tools.slice(start, start + TOOLS_PAGE_SIZE);
    const last = page.at(-1);
    const more = last !== undefined && tools.at(-1)?.name !== last.name;
    return {
      tools: page.map(listedTool) as never,
      ...(more ? { nextCursor: Buffer.from(last.name, 'utf8').toString('base64url') } : {}),
    };
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const name = request.params.name;
    const args = request.params.arguments ?? {};
    const tool = (await cachedTools(services, caller.accountId)).find((found) => found.name === name);
    if (tool === undefined || tool.policy === 'block') {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        tool === undefined
          ? `Unknown tool "${name}": tools/list names the tools of this account.`
          : `Tool "${name}" is blocked in account "${caller.accountSlug}"; an account owner can allow it.`,
      );
    }
    if (tool.notConnected) {
      return refusal(
        `Not run: "${tool.version.slug}" is not connected for account "${caller.accountSlug}". Connect it first: open ${services.publicOrigin ?? ''}/api/integrations/${tool.version.slug}/oauth/connect?accountId=${caller.accountSlug} while signed in.`,
      );
    }
    if (needsConfirmation(tool)) {
      const asked = await confirmation(services, caller, tool, args, ctx, server);
      if (asked !== 'confirmed') return asked;
    }
    return runTool(services, caller, tool, args);
  });
  return server;
}

function cursorName(cursor: string): string {
  return Buffer.from(cursor, 'base64url').toString('utf8');
}
