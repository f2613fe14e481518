import {
  type RevokeSessionResponse,
  type RevokeTokenResponse,
  revokeSessionResponseSchema,
  revokeTokenResponseSchema,
  type SessionView,
  sessionsResponseSchema,
  type TokenView,
  tokensResponseSchema,
} from '@platform/wire';
import { CliError } from '../../cli/CliError.js';
import { createHostClient, type HostClient } from '../../host/createHostClient.js';
import { hostErrorToCliError } from '../../host/hostError.js';
import { readHostData, type WireSchema } from '../../host/readHostData.js';
import { resolveSession } from '../../host/resolveSession.js';

export interface SessionsOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host?: string;
  /** A session's or token's id to revoke. */
  readonly revoke?: string;
}

/** `data` of `platform sessions --json`. */
export interface SessionsReport {
  readonly host: string;
  readonly user: string;
  readonly sessions: readonly SessionView[];
  readonly tokens: readonly TokenView[];
  /** What `--revoke` ended: a session (with the tokens it minted) or a token. */
  readonly revoked?:
    | ({ readonly kind: 'session' } & RevokeSessionResponse)
    | ({ readonly kind: 'token' } & RevokeTokenResponse);
}

async function get<T>(client: HostClient, path: string, schema: WireSchema<T>): Promise<T> {
  const answer = await client.call('GET', path);
  if (!answer.ok) throw hostErrorToCliError(client.origin, answer.status, answer.error);
  return readHostData(client.origin, `GET ${path}`, schema, answer.data);
}

async function remove<T>(client: HostClient, path: string, schema: WireSchema<T>): Promise<T> {
  const answer = await client.call('DELETE', path);
  if (!answer.ok) throw hostErrorToCliError(client.origin, answer.status, answer.error);
  return readHostData(client.origin, `DELETE ${path}`, schema, answer.data);
}

/**
 * The signed-in user's sessions (browser and CLI) and personal access tokens on a host, with their
 * last use; with `revoke`, that session (and the tokens it minted) or token is revoked first.
 */
export async function listSessions(options: SessionsOptions): Promise<SessionsReport> {
  const { origin, session } = resolveSession(options.env, options.host);
  const client = createHostClient(origin, session.token);
  const load = async () => ({
    sessions: (await get(client, '/api/platform/sessions', sessionsResponseSchema)).sessions,
    tokens: (await get(client, '/api/platform/tokens', tokensResponseSchema)).tokens,
  });
  let revoked: SessionsReport['revoked'];
  if (options.revoke !== undefined) {
    const before = await load();
    const id = encodeURIComponent(options.revoke);
    const listed = before.sessions.find((item) => item.id === options.revoke);
    if (listed?.current === true) {
      throw new CliError('usage', `Session ${options.revoke} is the one this CLI is signed in with.`, {
        hint: `Run \`platform logout --host ${origin}\` to end it and forget it here.`,
      });
    }
    if (listed !== undefined) {
      revoked = {
        kind: 'session',
        ...(await remove(client, `/api/platform/sessions/${id}`, revokeSessionResponseSchema)),
      };
    } else if (before.tokens.some((item) => item.id === options.revoke)) {
      revoked = {
        kind: 'token',
        ...(await remove(client, `/api/platform/tokens/${id}`, revokeTokenResponseSchema)),
      };
    } else {
      throw new CliError('usage', `You have no session or token ${options.revoke} on ${origin}.`, {
        hint: 'Run `platform sessions` and pass one of the ids it lists to --revoke.',
      });
    }
  }
  return {
    host: origin,
    user: session.user.email,
    ...(await load()),
    ...(revoked === undefined ? {} : { revoked }),
  };
}
