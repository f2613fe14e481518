import type { AnyIntegrationDefinition, IntegrationContext } from '../integration/types.js';
import { errorMessage } from './_errors.js';
import type { RunError } from './envelope.js';

export type ActivateResult =
  | { readonly ok: true; readonly ran: boolean }
  | { readonly ok: false; readonly error: RunError<'handler_error'> };

/**
 * Runs `onActivate` if declared. Its errors are non-fatal: logged through `ctx.logger` and
 * returned, never thrown, so activation itself stands.
 * @example await runActivate(definition, ctx); // after the activation row is persisted
 */
export async function runActivate(
  definition: AnyIntegrationDefinition,
  ctx: IntegrationContext,
): Promise<ActivateResult> {
  if (definition.onActivate === undefined) return { ok: true, ran: false };
  try {
    await definition.onActivate(ctx);
    return { ok: true, ran: true };
  } catch (thrown) {
    const message = errorMessage(thrown);
    ctx.logger.warn(`onActivate failed (activation kept): ${message}`);
    return { ok: false, error: { code: 'handler_error', message } };
  }
}
