import {
  type McpGrant,
  mcpGrantsResponseSchema,
  type RevokeMcpGrantResponse,
  revokeMcpGrantResponseSchema,
} from '@platform/wire';
import { CliError } from '../../cli/CliError.js';
import { createHostClient } from '../../host/createHostClient.js';
import { hostErrorToCliError } from '../../host/hostError.js';
import { readHostData } from '../../host/readHostData.js';
import { resolveSession } from '../../host/resolveSession.js';

export interface McpOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host?: string;
  /** `grants` lists; `revoke` ends the grant `id` first, then lists. */
  readonly action: 'grants' | 'revoke';
  readonly id?: string;
}

/** `data` of `platform mcp grants --json` and `platform mcp revoke <id> --json`. */
export interface McpReport {
  readonly host: string;
  readonly user: string;
  readonly grants: readonly McpGrant[];
  readonly revoked?: RevokeMcpGrantResponse;
}

/**
 * The MCP clients the signed-in user allowed (client, account, when, last use); `revoke` ends one
 * first (its tokens stop working at once).
 */
export async function mcpGrants(options: McpOptions): Promise<McpReport> {
  const { origin, session } = resolveSession(options.env, options.host);
  const client = createHostClient(origin, session.token);
  let revoked: RevokeMcpGrantResponse | undefined;
  if (options.action === 'revoke') {
    const id = options.id ?? '';
    const path = `/api/platform/mcp/grants/${encodeURIComponent(id)}`;
    const answer = await client.call('DELETE', path);
    if (!answer.ok) {
      if (answer.status === 404) {
        throw new CliError('usage', `You have no MCP grant ${id} on ${origin}.`, {
          hint: 'Run `platform mcp grants` and pass one of the ids it lists.',
        });
      }
      throw hostErrorToCliError(client.origin, answer.status, answer.error);
    }
    revoked = readHostData(origin, `DELETE ${path}`, revokeMcpGrantResponseSchema, answer.data);
  }
  const path = '/api/platform/mcp/grants';
  const answer = await client.call('GET', path);
  if (!answer.ok) throw hostErrorToCliError(client.origin, answer.status, answer.error);
  const { grants } = readHostData(origin, `GET ${path}`, mcpGrantsResponseSchema, answer.data);
  return { host: origin, user: session.user.email, grants, ...(revoked === undefined ? {} : { revoked }) };
}
