import { isErrorNamed } from '../integration/errors.js';
import type { AnyIntegrationDefinition, IntegrationContext } from '../integration/types.js';
import { errorMessage, isPublicActionError, publicActionStatus, toDevError } from './_errors.js';
import { describeIssues, validateWith } from './_validate.js';
import {
  ACTION_FAILED_MESSAGE,
  type ActionEnvelope,
  type ActionError,
  type DevError,
  STORAGE_CONFLICT_MESSAGE,
} from './envelope.js';

export interface InvokeActionOptions {
  /**
   * `production`: a `PublicActionError` message is returned verbatim, never `devError`.
   * `harness`: `Action failed.` for any throw, plus `devError` with message and stack.
   * In both, a `PublicActionError`'s 4xx `status` (default 400) is set on the error.
   */
  readonly mode: 'production' | 'harness';
}

/**
 * Runs one action as the actions route does: unknown name, JSON parse, input validation, handler,
 * output validation, each failure mapped to its code. Never throws.
 * @example const envelope = await invokeAction(definition, 'create-note', '{"title":"Hi"}', ctx, { mode: 'production' });
 */
export async function invokeAction(
  definition: AnyIntegrationDefinition,
  actionName: string,
  rawBody: string,
  ctx: IntegrationContext,
  options: InvokeActionOptions,
): Promise<ActionEnvelope> {
  const actions = definition.actions ?? {};
  const action = Object.hasOwn(actions, actionName) ? actions[actionName] : undefined;
  if (action === undefined) {
    const known = Object.keys(actions);
    return failure({
      code: 'action_not_found',
      message: `Unknown action "${actionName}". ${known.length > 0 ? `Declared actions: ${known.join(', ')}.` : 'This integration declares no actions.'}`,
    });
  }

  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch (error) {
    return failure({
      code: 'invalid_input',
      message: 'The request body is not valid JSON.',
      issues: [{ code: 'invalid_json', path: [], message: `Body is not JSON: ${(error as Error).message}` }],
    });
  }
  const input = await validateWith(action.input, body);
  if (!input.ok) {
    return failure({
      code: 'invalid_input',
      message: `The input does not match the action's schema: ${describeIssues(input.issues)}`,
      issues: input.issues,
    });
  }

  let result: unknown;
  try {
    result = await action.handler(ctx, input.value);
  } catch (thrown) {
    // Not a handler bug: the call ran while another changed what it read; the caller retries.
    if (isErrorNamed(thrown, 'StorageConflictError')) {
      ctx.logger.warn(`action "${actionName}" stopped: ${errorMessage(thrown)}`);
      return failure({ code: 'conflict', message: STORAGE_CONFLICT_MESSAGE });
    }
    ctx.logger.error(`action "${actionName}" failed: ${errorMessage(thrown)}`);
    const isPublic = isPublicActionError(thrown);
    const message = options.mode === 'production' && isPublic ? thrown.message : ACTION_FAILED_MESSAGE;
    return handlerError(
      message,
      options,
      toDevError(thrown),
      isPublic ? publicActionStatus(thrown) : undefined,
    );
  }

  let data = result;
  if (action.output !== undefined) {
    const output = await validateWith(action.output, result);
    if (!output.ok) {
      const message = `the result does not match the action's output schema: ${describeIssues(output.issues)}`;
      ctx.logger.error(`action "${actionName}" failed: ${message}`);
      return handlerError(ACTION_FAILED_MESSAGE, options, { message: `Action "${actionName}": ${message}` });
    }
    data = output.value;
  }
  try {
    // The envelope goes out as JSON; a result JSON cannot carry is a handler fault, reported here.
    return { ok: true, data: data === undefined ? null : JSON.parse(JSON.stringify(data)) };
  } catch (error) {
    const message = `the result cannot be sent as JSON (${(error as Error).message})`;
    ctx.logger.error(`action "${actionName}" failed: ${message}`);
    return handlerError(ACTION_FAILED_MESSAGE, options, { message: `Action "${actionName}": ${message}` });
  }
}

function failure(error: ActionError): ActionEnvelope {
  return { ok: false, error };
}

// `status`: a PublicActionError's 4xx, in both modes (the harness answers it too, with its own message).
function handlerError(
  message: string,
  options: InvokeActionOptions,
  devError: DevError,
  status?: number,
): ActionEnvelope {
  const withStatus = status === undefined ? {} : { status };
  if (options.mode === 'harness')
    return failure({ code: 'handler_error', message: ACTION_FAILED_MESSAGE, devError, ...withStatus });
  return failure({ code: 'handler_error', message, ...withStatus });
}
