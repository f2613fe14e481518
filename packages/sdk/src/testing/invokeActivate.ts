import type { AnyIntegrationDefinition, IntegrationContext } from '../integration/types.js';

/**
 * Runs a definition's `onActivate` against a context, for tests. Unlike the host, which treats
 * its errors as non-fatal, this rejects with the handler's error so a test can assert it.
 * @example await invokeActivate(definition, createMockContext(definition));
 */
export async function invokeActivate(
  definition: AnyIntegrationDefinition,
  ctx: IntegrationContext<any>,
): Promise<void> {
  await definition.onActivate?.(ctx);
}
