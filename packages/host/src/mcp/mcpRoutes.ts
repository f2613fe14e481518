import { randomUUID } from 'node:crypto';
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
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { StorageConflictError } from '@platform/sdk/integration';
import { STORAGE_CONFLICT_MESSAGE, type ToolEnvelope } from '@platform/sdk/runtime';
import { type Context, Hono } from 'hono';
import { callCapabilities } from '../capabilities/callCapabilities.js';
import type { HostServices } from '../HostServices.js';
import { checkStateChange, credentialOf, hostOrigin, unauthenticated } from '../routes/_auth.js';
import { consumeCallRate } from '../routes/_callRate.js';
import { errorResponse, RouteError, requestIdOf } from '../routes/_errors.js';
import { sha256 } from '../store/ids.js';
import { useConfirmation } from '../store/toolPolicies.js';
import {
  accountByRefSql,
  CREDENTIAL_COLUMNS_SQL,
  credentialFromRow,
  credentialKindsOf,
  type User,
  unknownAccount,
} from '../store/users.js';
import { openConfirmation, sealConfirmation } from './confirmation.js';
import { accountTools, type CatalogTool, listedTool, needsConfirmation } from './toolCatalog.js';

/** The first revision served statelessly (per-request envelope); earlier ones are 2025-era. */
const MODERN_REVISION = '2026-07-28';

/** Tools per `tools/list` page. */
export const TOOLS_PAGE_SIZE = 100;

/** 2025-era sessions one host instance keeps (each a connection's server), and how long one may idle. */
const LEGACY_SESSIONS_MAX = 1000;
const LEGACY_SESSION_IDLE_MS = 30 * 60_000;

/** Who calls: the signed-in user, for one account they belong to. */
interface McpCaller {
  readonly user: User;
  readonly accountId: string;
  readonly accountSlug: string;
  readonly requestId: string | undefined;
}

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

  app.all('/mcp', async (c) => {
    let caller: McpCaller;
    try {
      caller = await mcpCaller(services, c);
    } catch (error) {
      if (!(error instanceof RouteError)) throw error;
      const response = errorResponse(c, error.status, error.code, error.message, error.extra);
      if (error.status === 401) {
        response.headers.set(
          'WWW-Authenticate',
          `Bearer realm="${hostOrigin(services, c)}/mcp", error="invalid_token", error_description="${error.message.replaceAll('"', "'")}"`,
        );
      }
      return response;
    }
    const authInfo = { token: '', clientId: 'platform', scopes: [], extra: { caller } };
    // A POST body is read once, here, on the server's direct path (the SDK then parses nothing and
    // streams nothing): at most `actionBodyBytes`, then JSON or a JSON-RPC parse error.
    let parsedBody: unknown;
    if (c.req.method === 'POST') {
      const read = await readMcpBody(c, maxRequestBodySize);
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

async function readMcpBody(c: Context, maxBytes: number): Promise<{ body: unknown } | Response> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number.parseInt(declared, 10) > maxBytes) {
    return jsonRpcError(413, -32600, `The body is larger than ${maxBytes} bytes; send less per request.`);
  }
  const text = await c.req.text();
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    return jsonRpcError(413, -32600, `The body is larger than ${maxBytes} bytes; send less per request.`);
  }
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return jsonRpcError(400, -32700, 'Parse error: the body is not JSON; send one JSON-RPC message.');
  }
}

function callerOf(context: McpRequestContext): McpCaller {
  const caller = (context.authInfo?.extra as { caller?: McpCaller } | undefined)?.caller;
  if (caller === undefined) throw new Error('an MCP request reached the server without its caller');
  return caller;
}

// The caller in one round trip, memoized like an action call's resolution (`routes/_call.ts`):
// the credential, the account `$3` names (id or slug) and the membership. Every rule is checked
// again on each request from the row (expiry against `services.now()` included).
const CALLER_SQL = `
SELECT u.id, u.email, u.name, u.is_platform_admin, ${CREDENTIAL_COLUMNS_SQL},
       acc.id AS account_id, acc.slug AS account_slug, m.role
FROM sessions s
JOIN users u ON u.id = s.user_id
LEFT JOIN (${accountByRefSql('$3')}) acc ON true
LEFT JOIN memberships m ON m.user_id = u.id AND m.account_id = acc.id
WHERE s.token_hash = $1 AND s.kind IN ($2, $4)`;

/**
 * The caller of `/mcp`: a bearer token (a personal access token or CLI session; the browser's
 * cookie is not taken) and `accountId` naming an account the user belongs to.
 */
async function mcpCaller(services: HostServices, c: Context): Promise<McpCaller> {
  const credential = credentialOf(c);
  if (credential?.kind !== 'token' || !credential.secret) {
    throw new RouteError(
      401,
      'unauthorized',
      'Send a platform token as `Authorization: Bearer <token>` (create one with `POST /api/platform/tokens` while signed in, or an operator runs `platform-host admin token create --email <you>`).',
    );
  }
  if (c.req.method === 'POST') checkStateChange(services, c, { requireJson: false, credential: 'token' });
  const ref = c.req.query('accountId') ?? '';
  const kinds = credentialKindsOf('bearer');
  const params = [sha256(credential.secret), kinds[0], ref, kinds[1]] as const;
  const row = await services.cache.memoize(
    `mcp-caller:${JSON.stringify(params)}`,
    async () => (await services.db.query(CALLER_SQL, params)).rows[0],
    (found) => found !== undefined && found.role !== null,
  );
  if (row === undefined) throw unauthenticated(credential);
  const { failure } = credentialFromRow(row, services.now());
  if (failure !== undefined) throw unauthenticated(credential, failure);
  if (ref === '') {
    throw new RouteError(
      400,
      'invalid_request',
      'Add the accountId query parameter naming the account whose tools to serve (its id or slug): /mcp?accountId=<account>.',
    );
  }
  if (row.account_id === null) {
    throw new RouteError(
      404,
      'account_not_found',
      `${unknownAccount(ref)}; pass the id or slug of an account you belong to (GET /api/platform/me lists them).`,
    );
  }
  if (row.role === null) {
    throw new RouteError(
      403,
      'forbidden',
      `You are not a member of account "${ref}"; ask an account owner to add you.`,
    );
  }
  return {
    user: {
      id: row.id as string,
      email: row.email as string,
      name: row.name as string,
      isPlatformAdmin: row.is_platform_admin as boolean,
    },
    accountId: row.account_id as string,
    accountSlug: row.account_slug as string,
    requestId: requestIdOf(c),
  };
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

/** `confirmed`, or what to answer instead: the question (`input_required`) or a refusal. */
async function confirmation(
  services: HostServices,
  caller: McpCaller,
  tool: CatalogTool,
  args: unknown,
  ctx: ServerContext,
  server: Server,
): Promise<'confirmed' | CallToolResult | ReturnType<typeof inputRequired>> {
  const call = { userId: caller.user.id, accountId: caller.accountId, tool: tool.name, args };
  const state = ctx.mcpReq.requestState<string>();
  if (typeof state !== 'string') {
    const capabilities =
      (ctx.mcpReq as { envelope?: { clientCapabilities?: { elicitation?: unknown } } }).envelope
        ?.clientCapabilities ?? server.getClientCapabilities();
    if (capabilities?.elicitation === undefined) {
      return refusal(
        `Not run: "${tool.name}" ${tool.effect === 'read' ? 'is highly sensitive' : `${tool.effect === 'destructive' ? 'destroys' : 'changes'} data`}, so it runs only after you confirm, and this client cannot ask you (it does not support elicitation). Use a client that does, or an account owner can let it run without asking: \`platform-host admin tool policy --account ${caller.accountSlug} --tool ${tool.name} --policy allow\`.`,
      );
    }
    const { state: sealed } = sealConfirmation(services.secretBox, call, services.now());
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: confirmationPrompt(tool, args),
          requestedSchema: {
            type: 'object',
            properties: {
              confirm: { type: 'boolean', title: `Run ${tool.name}`, description: 'Yes to run it now.' },
            },
            required: ['confirm'],
          },
        }),
      },
      requestState: sealed,
    });
  }
  const opened = openConfirmation(services.secretBox, state, call, services.now());
  if (!opened.ok) return refusal(`Not run: ${opened.why}. Call the tool again to be asked anew.`);
  const answer = acceptedContent<{ confirm?: unknown }>(ctx.mcpReq.inputResponses, 'confirm');
  if (answer?.confirm !== true) return refusal(`Not run: "${tool.name}" was not confirmed.`);
  if (
    !(await useConfirmation(
      services.db,
      opened.claim.nonce,
      new Date(opened.claim.expiresAt),
      services.now(),
    ))
  ) {
    return refusal('Not run: this confirmation was already used. Call the tool again to be asked anew.');
  }
  return 'confirmed';
}

const PROMPT_ARGS_CHARS = 600;

function confirmationPrompt(tool: CatalogTool, args: unknown): string {
  const shown = JSON.stringify(args ?? {});
  const argsText = shown.length > PROMPT_ARGS_CHARS ? `${shown.slice(0, PROMPT_ARGS_CHARS)}…` : shown;
  const effect =
    tool.effect === 'destructive'
      ? 'It destroys data and cannot be undone.'
      : tool.effect === 'write'
        ? 'It changes data.'
        : 'It reads sensitive data.';
  return `${tool.version.slug} wants to run "${tool.toolName}" with ${argsText}. ${effect} Run it?`;
}

async function runTool(
  services: HostServices,
  caller: McpCaller,
  tool: CatalogTool,
  args: unknown,
): Promise<CallToolResult> {
  const requestId = caller.requestId;
  const identity = {
    kind: 'tool',
    integration: tool.version.slug,
    version: tool.version.number,
    tool: tool.toolName,
    accountId: caller.accountId,
    userId: caller.user.id,
    requestId,
  };
  const limit = await consumeCallRate(services, {
    integration: tool.version.slug,
    accountId: caller.accountId,
    userId: caller.user.id,
    requestId,
    what: 'tool call',
  });
  if (!limit.allowed) return refusal(`Too many calls; retry in ${limit.retryAfterSeconds} s.`);
  const { capabilities, commit, conflict } = callCapabilities(services, {
    version: tool.version,
    accountId: caller.accountId,
    userId: caller.user.id,
    requestId,
  });
  const envelope: ToolEnvelope = await services.runtime.invokeTool({
    version: tool.version,
    capabilities,
    actor: { kind: 'user', userId: caller.user.id, accountId: caller.accountId },
    timeoutMs: services.limits.actionTimeoutMs,
    toolName: tool.toolName,
    args,
  });
  const failed = () => refusal(`The tool failed (request ${requestId ?? 'unknown'}).`);
  if (!envelope.ok) {
    if (conflict() !== undefined || envelope.error.code === 'conflict') {
      services.logger.info({ ...identity, outcome: 'conflict' }, 'tool call conflicted on storage');
      return refusal(STORAGE_CONFLICT_MESSAGE);
    }
    services.logger.info({ ...identity, outcome: envelope.error.code }, 'tool call failed');
    if (envelope.error.code === 'invalid_input') return refusal(envelope.error.message);
    if (envelope.error.code === 'handler_error' && envelope.error.isPublic)
      return refusal(envelope.error.message);
    return failed();
  }
  try {
    await commit();
  } catch (error) {
    if (error instanceof StorageConflictError) {
      services.logger.info({ ...identity, outcome: 'conflict' }, 'tool call conflicted on storage');
      return refusal(STORAGE_CONFLICT_MESSAGE);
    }
    services.logger.error({ ...identity, err: error }, "saving the tool call's storage writes failed");
    return failed();
  }
  services.logger.info({ ...identity, outcome: 'ok' }, 'tool call');
  const data = envelope.data;
  const text = JSON.stringify(data ?? null);
  return {
    content: [{ type: 'text', text }],
    ...(typeof data === 'object' && data !== null && !Array.isArray(data)
      ? { structuredContent: data as Record<string, unknown> }
      : {}),
  };
}

function refusal(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function cursorName(cursor: string): string {
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

/**
 * 2025-era connections of this instance: a streamable HTTP session each (its server and
 * transport), bound to the user and account that opened it; bounded, and dropped when idle.
 */
class LegacySessions {
  private readonly sessions = new Map<
    string,
    { transport: WebStandardStreamableHTTPServerTransport; userId: string; accountId: string; used: number }
  >();

  async serve(
    request: Request,
    caller: McpCaller,
    newServer: () => Server,
    options: {
      authInfo: { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> };
      parsedBody: unknown;
    },
  ): Promise<Response> {
    this.sweep();
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.sessions.get(id);
      // Another user's or account's session id is as unknown as a made-up one.
      if (
        session === undefined ||
        session.userId !== caller.user.id ||
        session.accountId !== caller.accountId
      ) {
        return Response.json(
          {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32001, message: 'Session not found; initialize again.' },
          },
          { status: 404 },
        );
      }
      session.used = Date.now();
      return session.transport.handleRequest(request, options);
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        if (this.sessions.size >= LEGACY_SESSIONS_MAX) this.closeOldest();
        this.sessions.set(sessionId, {
          transport,
          userId: caller.user.id,
          accountId: caller.accountId,
          used: Date.now(),
        });
      },
      onsessionclosed: (sessionId) => {
        this.sessions.delete(sessionId);
      },
    });
    await newServer().connect(transport);
    return transport.handleRequest(request, options);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (now - session.used > LEGACY_SESSION_IDLE_MS) {
        this.sessions.delete(id);
        void session.transport.close();
      }
    }
  }

  private closeOldest(): void {
    const oldest = [...this.sessions.entries()].sort(([, a], [, b]) => a.used - b.used)[0];
    if (oldest === undefined) return;
    this.sessions.delete(oldest[0]);
    void oldest[1].transport.close();
  }
}
