import {
  acceptedContent,
  type CallToolResult,
  inputRequired,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { StorageConflictError } from '@platform/sdk/integration';
import {
  STORAGE_CONFLICT_MESSAGE,
  type ToolEnvelope,
  toolCallResult,
  toolConfirmationPrompt,
  toolConfirmationSchema,
  toolConfirmationUnavailableMessage,
  toolNotConfirmedMessage,
  toolRefusal,
} from '@platform/sdk/runtime';
import { callCapabilities } from '../capabilities/callCapabilities.js';
import type { HostServices } from '../HostServices.js';
import { consumeCallRate } from '../routes/_callRate.js';
import { useConfirmation } from '../store/toolPolicies.js';
import type { McpCaller } from './_caller.js';
import { openConfirmation, sealConfirmation } from './confirmation.js';
import type { CatalogTool } from './toolCatalog.js';

/** `confirmed`, or what to answer instead: the question (`input_required`) or a refusal. */
export async function confirmation(
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
        toolConfirmationUnavailableMessage(
          tool,
          `an account owner can let it run without asking: \`platform-host admin tool policy --account ${caller.accountSlug} --tool ${tool.name} --policy allow\`.`,
        ),
      );
    }
    const { state: sealed } = sealConfirmation(services.secretBox, call, services.now());
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: toolConfirmationPrompt(tool, args),
          requestedSchema: toolConfirmationSchema(tool),
        }),
      },
      requestState: sealed,
    });
  }
  const opened = openConfirmation(services.secretBox, state, call, services.now());
  if (!opened.ok) return refusal(`Not run: ${opened.why}. Call the tool again to be asked anew.`);
  const answer = acceptedContent<{ confirm?: unknown }>(ctx.mcpReq.inputResponses, 'confirm');
  if (answer?.confirm !== true) return refusal(toolNotConfirmedMessage(tool));
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

export async function runTool(
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
  return toolCallResult(envelope.data) as CallToolResult;
}

export function refusal(message: string): CallToolResult {
  return toolRefusal(message) as CallToolResult;
}
