import { createHostClient } from '../../host/createHostClient.js';
import { forgetSession } from '../../host/forgetSession.js';
import { hostErrorToCliError } from '../../host/hostError.js';
import { resolveSession } from '../../host/resolveSession.js';

export interface LogoutOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host?: string;
}

export interface LogoutReport {
  readonly host: string;
  readonly user: string;
  readonly kind: 'cli' | 'token';
  /**
   * `revoked`: the host ended the CLI session (and every token it minted); `already_ended`: the host
   * no longer knew it (expired or revoked); `kept`: a personal access token, forgotten here only.
   */
  readonly onHost: 'revoked' | 'already_ended' | 'kept';
  /** Tokens the CLI session had minted, revoked with it. */
  readonly revokedTokens: readonly string[];
}

/**
 * Signs out of a host: a CLI session is revoked on the host first (with the tokens it minted), and
 * only then forgotten here, so a host that cannot be reached leaves the session stored for a retry.
 * A personal access token is forgotten here; it stays valid until it is revoked.
 */
export async function signOut(options: LogoutOptions): Promise<LogoutReport> {
  const { origin, session } = resolveSession(options.env, options.host);
  const base = { host: origin, user: session.user.email, kind: session.kind };
  if (session.kind === 'token') {
    forgetSession(options.env, origin);
    return { ...base, onHost: 'kept', revokedTokens: [] };
  }
  const answer = await createHostClient(origin, session.token).call(
    'DELETE',
    '/api/platform/sessions/current',
  );
  if (!answer.ok && answer.error.code !== 'auth_required') {
    throw hostErrorToCliError(origin, answer.status, answer.error);
  }
  forgetSession(options.env, origin);
  if (!answer.ok) return { ...base, onHost: 'already_ended', revokedTokens: [] };
  const revokedTokens = (answer.data as { revokedTokens?: unknown }).revokedTokens;
  return {
    ...base,
    onHost: 'revoked',
    revokedTokens: Array.isArray(revokedTokens) ? revokedTokens.filter((id) => typeof id === 'string') : [],
  };
}
