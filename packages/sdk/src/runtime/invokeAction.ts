import type { AnyIntegrationDefinition, IntegrationContext } from '../integration/types.js';
import { type DeclaredFailure, runDeclaredHandler } from './_runDeclaredHandler.js';
import { ACTION_FAILED_MESSAGE, type ActionEnvelope, type ActionError } from './envelope.js';

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
  const result = await runDeclaredHandler(action, body, ctx, {
    kind: 'action',
    name: actionName,
    failedMessage: ACTION_FAILED_MESSAGE,
    mode: options.mode,
  });
  if (result.ok) return result;
  // The envelope carries the failure without `isPublic`, which is the tool adapters' concern.
  const { isPublic: _isPublic, ...error } = result.error as DeclaredFailure & { isPublic?: boolean };
  return failure(error);
}

function failure(error: ActionError): ActionEnvelope {
  return { ok: false, error };
}
