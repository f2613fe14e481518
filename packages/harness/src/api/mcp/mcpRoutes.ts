import { localhostHostValidation } from '@modelcontextprotocol/hono';
import {
  acceptedContent,
  type CallToolResult,
  createMcpHandler,
  inputRequired,
  isLegacyRequest,
  type McpRequestContext,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  mcpToolOf,
  redactText,
  STORAGE_CONFLICT_MESSAGE,
  toolCallResult,
  toolConfirmationPrompt,
  toolConfirmationSchema,
  toolConfirmationUnavailableMessage,
  toolNotConfirmedMessage,
  toolRefusal,
} from '@platform/sdk/runtime';
import { type Context, Hono } from 'hono';
import { effectiveToolbarState } from '../../hooks/harnessToolbarState.js';
import type { HarnessRegistryEntry } from '../../types.js';
import type { HarnessApi, HarnessCall } from '../_harnessApi.js';
import { isVariant, readToolbar, variantMessage } from '../_toolbar.js';
import { type HarnessTool, harnessTools } from '../tools/harnessTools.js';
import { runHarnessTool } from '../tools/runHarnessTool.js';
import { PendingConfirmations } from './_confirmations.js';
import { LegacySessions } from './_legacySessions.js';

const MODERN_REVISION = '2026-07-28';

/** What one `/mcp` request runs under: the variant and mode its URL (or `x-harness-*` headers) chose. */
interface McpToolbar {
  readonly variant: HarnessCall['variant'];
  readonly mode: HarnessCall['mode'];
}

interface ServedTool {
  readonly entry: HarnessRegistryEntry;
  readonly tool: HarnessTool;
}

/**
 * `/mcp`: the harness as the host's MCP server, for every entry of `harness.config.ts` at once, no
 * sign-in (loopback only). The same `tools/list` (the sdk's descriptors, `mcpToolOf`) and
 * `tools/call` (unknown tool `-32602`; confirmation of writes, destructive and highly sensitive
 * tools through elicitation, the host's prompt; `isError` results for bad input, refusals and
 * failures) on the same official SDK, 2026-07-28 stateless and 2025-era clients in sessions.
 * `?variant=default|empty|error` and `?mode=fixtures|live` pick the state tools run on (live only
 * for an entry with a `live` block), as the toolbar does for the page.
 */
export function mcpRoutes(api: HarnessApi): Hono {
  const app = new Hono();
  const confirmations = new PendingConfirmations(api.now);
  const modern = createMcpHandler((context) => toolServer(api, confirmations, toolbarOf(context)), {
    legacy: 'reject',
    onerror: (error) => api.log(`[harness] /mcp request refused: ${redactText(error.message)}`),
  });
  const sessions = new LegacySessions();
  // The SDK's DNS-rebinding guard for local MCP servers, besides the harness's own Host check.
  if (!api.exposed) app.use('/mcp', localhostHostValidation());
  app.all('/mcp', async (c) => {
    const toolbar = readMcpToolbar(c);
    if (typeof toolbar === 'string') return jsonRpcError(400, -32600, toolbar);
    let parsedBody: unknown;
    if (c.req.method === 'POST') {
      try {
        parsedBody = JSON.parse(await c.req.text()) as unknown;
      } catch {
        return jsonRpcError(400, -32700, 'Parse error: the body is not JSON; send one JSON-RPC message.');
      }
    }
    const revision = c.req.header('mcp-protocol-version');
    const modernHeader = revision !== undefined && revision >= MODERN_REVISION;
    if (!modernHeader && (await isLegacyRequest(c.req.raw, parsedBody))) {
      return sessions.serve(c.req.raw, () => toolServer(api, confirmations, toolbar), parsedBody);
    }
    const authInfo = { token: '', clientId: 'platform-harness', scopes: [], extra: { toolbar } };
    return modern.fetch(c.req.raw, { authInfo, ...(parsedBody === undefined ? {} : { parsedBody }) });
  });
  return app;
}

const jsonRpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });

// The query wins over the headers (an MCP client's configuration is a URL).
function readMcpToolbar(c: Context): McpToolbar | string {
  const headers = readToolbar(c.req.raw.headers);
  if (!headers.ok) return headers.message;
  const variant = c.req.query('variant') ?? headers.state.variant;
  const mode = c.req.query('mode') ?? headers.state.mode;
  if (!isVariant(variant)) return variantMessage(variant, 'The variant query parameter');
  if (mode !== 'fixtures' && mode !== 'live')
    return `The mode query parameter "${mode}" is not a mode; send fixtures (the default) or live.`;
  return { variant, mode };
}

function toolbarOf(context: McpRequestContext): McpToolbar {
  const toolbar = (context.authInfo?.extra as { toolbar?: McpToolbar } | undefined)?.toolbar;
  if (toolbar === undefined) throw new Error('an MCP request reached the harness server without its toolbar');
  return toolbar;
}

// Every entry's tools, by effective name (the first entry wins a name two would share).
function servedTools(api: HarnessApi): ServedTool[] {
  const served = new Map<string, ServedTool>();
  for (const entry of api.entries.values()) {
    if (entry.definition === undefined) continue;
    for (const tool of harnessTools(entry.definition).tools) {
      if (!served.has(tool.name)) served.set(tool.name, { entry, tool });
    }
  }
  return [...served.values()].sort((a, b) =>
    a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0,
  );
}

function toolServer(api: HarnessApi, confirmations: PendingConfirmations, toolbar: McpToolbar): Server {
  const server = new Server(
    { name: 'platform-harness', version: '1' },
    {
      capabilities: { tools: {} },
      instructions: `Tools of the integrations in harness.config.ts (platform dev, ${toolbar.mode}, variant ${toolbar.variant}).`,
    },
  );
  server.setRequestHandler('tools/list', async () => ({
    tools: servedTools(api).map(({ tool }) => mcpToolOf(tool)) as never,
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const name = request.params.name;
    const args = request.params.arguments ?? {};
    const served = servedTools(api).find((found) => found.tool.name === name);
    if (served === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}": tools/list names the tools of harness.config.ts.`,
      );
    }
    const { entry, tool } = served;
    if (tool.needsConfirmation) {
      const asked = confirm(confirmations, tool, args, ctx, server);
      if (asked !== 'confirmed') return asked;
    }
    const call: HarnessCall = { entry, ...effectiveToolbarState(entry, { ...toolbar, record: false }) };
    return runTool(api, call, tool, args);
  });
  return server;
}

// `confirmed`, or the question (`input_required`, which the SDK sends a 2025-era client as
// `elicitation/create`), or a refusal: the host's rule, with the harness's single-use states.
function confirm(
  confirmations: PendingConfirmations,
  tool: HarnessTool,
  args: unknown,
  ctx: ServerContext,
  server: Server,
): 'confirmed' | CallToolResult | ReturnType<typeof inputRequired> {
  const state = ctx.mcpReq.requestState<string>();
  if (typeof state !== 'string') {
    const capabilities =
      (ctx.mcpReq as { envelope?: { clientCapabilities?: { elicitation?: unknown } } }).envelope
        ?.clientCapabilities ?? server.getClientCapabilities();
    if (capabilities?.elicitation === undefined) {
      return toolRefusal(
        toolConfirmationUnavailableMessage(
          tool,
          'on the host an account owner can let it run without asking (tool policy allow); the harness always asks, as the default policy does.',
        ),
      ) as CallToolResult;
    }
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: toolConfirmationPrompt(tool, args),
          requestedSchema: toolConfirmationSchema(tool),
        }),
      },
      requestState: confirmations.open(tool.name, args),
    });
  }
  const why = confirmations.use(state, tool.name, args);
  if (why !== undefined)
    return toolRefusal(`Not run: ${why}. Call the tool again to be asked anew.`) as CallToolResult;
  const answer = acceptedContent<{ confirm?: unknown }>(ctx.mcpReq.inputResponses, 'confirm');
  if (answer?.confirm !== true) return toolRefusal(toolNotConfirmedMessage(tool)) as CallToolResult;
  return 'confirmed';
}

// As the host answers: data as structuredContent and text; a refusal's or bad input's message; any
// other failure a generic message (the error is in the platform dev terminal, as in the host's log).
async function runTool(
  api: HarnessApi,
  call: HarnessCall,
  tool: HarnessTool,
  args: unknown,
): Promise<CallToolResult> {
  const run = await runHarnessTool(api, call, tool, args, 'production');
  const { envelope } = run;
  if (envelope.ok) return toolCallResult(envelope.data) as CallToolResult;
  const { error } = envelope;
  if (error.code === 'conflict') return toolRefusal(STORAGE_CONFLICT_MESSAGE) as CallToolResult;
  if (error.code === 'invalid_input' || (error.code === 'handler_error' && error.isPublic))
    return toolRefusal(error.message) as CallToolResult;
  for (const line of run.logs.filter((logged) => logged.level === 'error'))
    api.log(`[harness] /mcp ${tool.name}: ${redactText(line.message)}`);
  return toolRefusal(
    'The tool failed (the platform dev terminal shows its error; a model on the host sees only this).',
  ) as CallToolResult;
}
