import type { AnyIntegrationDefinition, IntegrationContext } from '../integration/types.js';
import { type DeclaredFailure, runDeclaredHandler } from './_runDeclaredHandler.js';
import type { ValidationIssue } from './_validate.js';
import type { DevError } from './envelope.js';

/** The message every non-public tool failure answers with. */
export const TOOL_FAILED_MESSAGE = 'Tool failed.';

/**
 * Why a tool call did not answer data. `tool_not_found`: no tool of that name has a handler (an
 * MCP server answers it as an unknown tool); `invalid_input`: the arguments do not match the
 * tool's input schema (the handler did not run; `issues` name the fields); `conflict`: another call
 * changed stored data this one read, retry; `handler_error`: the handler threw, or answered what
 * its output schema or JSON refuses. `isPublic`: the message is a `PublicActionError`'s, meant for
 * the caller; otherwise it is the generic {@link TOOL_FAILED_MESSAGE}.
 */
export type ToolError =
  | { readonly code: 'tool_not_found'; readonly message: string }
  | { readonly code: 'invalid_input'; readonly message: string; readonly issues: readonly ValidationIssue[] }
  | { readonly code: 'conflict'; readonly message: string }
  | {
      readonly code: 'handler_error';
      readonly message: string;
      readonly isPublic: boolean;
      /** Harness only. */
      readonly devError?: DevError;
    };

export type ToolErrorCode = ToolError['code'];

export type ToolEnvelope<T = unknown> =
  | { readonly ok: true; readonly data: T }
  | { readonly ok: false; readonly error: ToolError };

export interface InvokeToolOptions {
  /** As for actions: `production` answers a `PublicActionError`'s message; `harness` adds `devError`. */
  readonly mode: 'production' | 'harness';
}

/**
 * Runs one tool call as the host's MCP server does: the tool found by its declared name (not the
 * effective, slug-prefixed one), `args` checked by the tool's input schema, the handler run with
 * `ctx`, its answer as JSON. Never throws.
 * @example const envelope = await invokeTool(definition, 'create_note', { title: 'Hi' }, ctx, { mode: 'production' });
 */
export async function invokeTool(
  definition: AnyIntegrationDefinition,
  toolName: string,
  args: unknown,
  ctx: IntegrationContext,
  options: InvokeToolOptions,
): Promise<ToolEnvelope> {
  const tools = definition.tools ?? [];
  const tool = tools.find((candidate) => candidate.name === toolName);
  const handler = tool?.handler;
  if (tool === undefined || typeof handler !== 'function') {
    const callable = tools
      .filter((candidate) => typeof candidate.handler === 'function')
      .map(({ name }) => name);
    const why = tool === undefined ? `Unknown tool "${toolName}".` : `Tool "${toolName}" has no handler.`;
    return {
      ok: false,
      error: {
        code: 'tool_not_found',
        message: `${why} ${callable.length > 0 ? `Tools with handlers: ${callable.join(', ')}.` : 'This integration has no tool with a handler.'}`,
      },
    };
  }
  const result = await runDeclaredHandler(
    { input: tool.input, handler },
    // A tool with no input schema takes no arguments: an MCP client may send none, or `{}`.
    args ?? {},
    ctx,
    { kind: 'tool', name: toolName, failedMessage: TOOL_FAILED_MESSAGE, mode: options.mode },
  );
  if (result.ok) return result;
  return { ok: false, error: toToolError(result.error) };
}

function toToolError(error: DeclaredFailure): ToolError {
  if (error.code !== 'handler_error') return error;
  const { status: _status, ...rest } = error;
  return rest;
}
