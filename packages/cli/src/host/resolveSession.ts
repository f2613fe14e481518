import { CliError } from '../cli/CliError.js';
import { parseHostUrl } from './parseHostUrl.js';
import { type HostSession, readHosts } from './sessionStore.js';

/** The host a command talks to and the stored credential for it. */
export interface ResolvedSession {
  readonly origin: string;
  readonly session: HostSession;
}

/**
 * The session for `--host` when given, else for the current host. No session at all (or none for
 * that host) is `auth_required`, as the host itself would answer.
 */
export function resolveSession(
  env: Readonly<Record<string, string | undefined>>,
  host: string | undefined,
): ResolvedSession {
  const file = readHosts(env);
  const origin = host === undefined ? file.current : parseHostUrl(host);
  if (origin === undefined) {
    throw new CliError('auth_required', 'Not signed in to any Platform host.', {
      hint: 'Run `platform login --host <url>`.',
    });
  }
  const session = file.hosts[origin];
  if (session === undefined) {
    throw new CliError('auth_required', `Not signed in to ${origin}.`, {
      hint: `Run \`platform login --host ${origin}\`.`,
    });
  }
  return { origin, session };
}
