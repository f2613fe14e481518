import { isErrorNamed, type OAuthConnectionRefusedError } from '../integration/errors.js';
import type { AnyIntegrationDefinition, IntegrationContext, Tokens } from '../integration/types.js';
import { errorMessage } from './_errors.js';
import type { RunResult } from './envelope.js';

/** OAuth callback codes `onTokens` can lead to. */
export type OnTokensErrorCode = 'not_configured' | 'wrong_workspace' | 'organization_access' | 'save_failed';

/**
 * Runs `oauth.onTokens` after a code exchange. A thrown `OAuthConnectionRefusedError` becomes its
 * reason (`wrong_workspace`, `organization_access`); any other throw is `save_failed`. Never throws.
 * @example const result = await runOnTokens(definition, ctx, tokens); // redirect with result.error.code on failure
 */
export async function runOnTokens(
  definition: AnyIntegrationDefinition,
  ctx: IntegrationContext,
  tokens: Tokens,
): Promise<RunResult<OnTokensErrorCode>> {
  if (definition.oauth === undefined) {
    return {
      ok: false,
      error: { code: 'not_configured', message: `Integration "${definition.slug}" declares no oauth.` },
    };
  }
  try {
    await definition.oauth.onTokens(ctx, tokens);
    return { ok: true };
  } catch (thrown) {
    const message = errorMessage(thrown);
    if (isErrorNamed<OAuthConnectionRefusedError>(thrown, 'OAuthConnectionRefusedError')) {
      const reason = thrown.reason;
      if (reason === 'wrong_workspace' || reason === 'organization_access') {
        ctx.logger.warn(`onTokens refused the connection (${reason}): ${message}`);
        return { ok: false, error: { code: reason, message } };
      }
    }
    ctx.logger.error(`onTokens failed: ${message}`);
    return { ok: false, error: { code: 'save_failed', message } };
  }
}
