import type { StandardSchemaV1 } from '@platform/integration-schema';
import { isErrorNamed } from '../integration/errors.js';
import type { IntegrationContext } from '../integration/types.js';
import { errorMessage, isPublicActionError, publicActionStatus, toDevError } from './_errors.js';
import { describeIssues, type ValidationIssue, validateWith } from './_validate.js';
import { type DevError, STORAGE_CONFLICT_MESSAGE } from './envelope.js';

/** What an action or a tool declares that this runs: its schemas and its handler. */
export interface DeclaredHandler {
  readonly input?: StandardSchemaV1 | undefined;
  readonly output?: StandardSchemaV1 | undefined;
  readonly handler: (ctx: IntegrationContext, input: unknown) => unknown;
}

/** `kind` and `name` name the call in log lines and developer errors; `failedMessage` is what a non-public failure answers. */
export interface DeclaredCall {
  readonly kind: 'action' | 'tool';
  readonly name: string;
  readonly failedMessage: string;
  readonly mode: 'production' | 'harness';
}

export type DeclaredFailure =
  | { readonly code: 'invalid_input'; readonly message: string; readonly issues: readonly ValidationIssue[] }
  | { readonly code: 'conflict'; readonly message: string }
  | {
      readonly code: 'handler_error';
      readonly message: string;
      readonly devError?: DevError;
      /** A `PublicActionError`'s 4xx status. */
      readonly status?: number;
      /** The message is the handler's own `PublicActionError` message, meant for the caller. */
      readonly isPublic: boolean;
    };

export type DeclaredResult =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly error: DeclaredFailure };

/**
 * Input validation, handler, output validation and the JSON round trip of one action or tool
 * call, each failure mapped to its code: the one place both `invokeAction` and `invokeTool` run a
 * handler. Never throws.
 */
export async function runDeclaredHandler(
  declared: DeclaredHandler,
  body: unknown,
  ctx: IntegrationContext,
  call: DeclaredCall,
): Promise<DeclaredResult> {
  let value: unknown = body;
  if (declared.input !== undefined) {
    const input = await validateWith(declared.input, body);
    if (!input.ok) {
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message: `The input does not match the ${call.kind}'s schema: ${describeIssues(input.issues)}`,
          issues: input.issues,
        },
      };
    }
    value = input.value;
  }

  let result: unknown;
  try {
    result = await declared.handler(ctx, value);
  } catch (thrown) {
    // Not a handler bug: the call ran while another changed what it read; the caller retries.
    if (isErrorNamed(thrown, 'StorageConflictError')) {
      ctx.logger.warn(`${call.kind} "${call.name}" stopped: ${errorMessage(thrown)}`);
      return { ok: false, error: { code: 'conflict', message: STORAGE_CONFLICT_MESSAGE } };
    }
    ctx.logger.error(`${call.kind} "${call.name}" failed: ${errorMessage(thrown)}`);
    const isPublic = isPublicActionError(thrown);
    const message = call.mode === 'production' && isPublic ? thrown.message : call.failedMessage;
    return handlerError(
      message,
      call,
      toDevError(thrown),
      isPublic ? publicActionStatus(thrown) : undefined,
      call.mode === 'production' && isPublic,
    );
  }

  let data = result;
  if (declared.output !== undefined) {
    const output = await validateWith(declared.output, result);
    if (!output.ok) {
      const message = `the result does not match the ${call.kind}'s output schema: ${describeIssues(output.issues)}`;
      ctx.logger.error(`${call.kind} "${call.name}" failed: ${message}`);
      return handlerError(call.failedMessage, call, { message: `${title(call)}: ${message}` });
    }
    data = output.value;
  }
  try {
    // The answer goes out as JSON; a result JSON cannot carry is a handler fault, reported here.
    return { ok: true, data: data === undefined ? null : JSON.parse(JSON.stringify(data)) };
  } catch (error) {
    const message = `the result cannot be sent as JSON (${(error as Error).message})`;
    ctx.logger.error(`${call.kind} "${call.name}" failed: ${message}`);
    return handlerError(call.failedMessage, call, { message: `${title(call)}: ${message}` });
  }
}

const title = (call: DeclaredCall) => `${call.kind === 'action' ? 'Action' : 'Tool'} "${call.name}"`;

// `status`: a PublicActionError's 4xx, in both modes (the harness answers it too, with its own message).
function handlerError(
  message: string,
  call: DeclaredCall,
  devError: DevError,
  status?: number,
  isPublic = false,
): DeclaredResult {
  const withStatus = status === undefined ? {} : { status };
  if (call.mode === 'harness')
    return {
      ok: false,
      error: { code: 'handler_error', message: call.failedMessage, devError, isPublic: false, ...withStatus },
    };
  return { ok: false, error: { code: 'handler_error', message, isPublic, ...withStatus } };
}
