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
    { input: tool.input, output: tool.output, handler },
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

/** The longest error message a tool's answer may carry to its caller; longer ones are cut. */
export const TOOL_MESSAGE_MAX_CHARS = 2000;

const ISSUES_KEPT = 50;

/**
 * A tool envelope that crossed from partner code (an isolate's JSON), checked field by field: what
 * the host passes on. Anything not a well-formed envelope is a generic, non-public
 * `handler_error`; messages are cut to {@link TOOL_MESSAGE_MAX_CHARS}; unknown fields are dropped.
 */
export function readToolEnvelope(value: unknown): ToolEnvelope {
  const failed: ToolEnvelope = {
    ok: false,
    error: { code: 'handler_error', message: TOOL_FAILED_MESSAGE, isPublic: false },
  };
  if (typeof value !== 'object' || value === null) return failed;
  const envelope = value as { ok?: unknown; data?: unknown; error?: unknown };
  if (envelope.ok === true) return { ok: true, data: envelope.data ?? null };
  if (envelope.ok !== false || typeof envelope.error !== 'object' || envelope.error === null) return failed;
  const error = envelope.error as { code?: unknown; message?: unknown; isPublic?: unknown; issues?: unknown };
  if (typeof error.message !== 'string') return failed;
  const message = error.message.slice(0, TOOL_MESSAGE_MAX_CHARS);
  switch (error.code) {
    case 'tool_not_found':
    case 'conflict':
      return { ok: false, error: { code: error.code, message } };
    case 'invalid_input':
      return { ok: false, error: { code: 'invalid_input', message, issues: issuesOf(error.issues) } };
    case 'handler_error':
      return error.isPublic === true
        ? { ok: false, error: { code: 'handler_error', message, isPublic: true } }
        : failed;
    default:
      return failed;
  }
}

function issuesOf(value: unknown): ValidationIssue[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, ISSUES_KEPT).flatMap((issue: unknown) => {
    if (typeof issue !== 'object' || issue === null) return [];
    const { message, path } = issue as { message?: unknown; path?: unknown };
    if (typeof message !== 'string') return [];
    return [
      {
        message: message.slice(0, TOOL_MESSAGE_MAX_CHARS),
        path: Array.isArray(path)
          ? path.filter(
              (part): part is string | number => typeof part === 'string' || typeof part === 'number',
            )
          : [],
      },
    ];
  });
}
