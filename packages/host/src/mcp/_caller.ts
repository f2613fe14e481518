import type { Context } from 'hono';
import type { HostServices } from '../HostServices.js';
import { noteGrantUse } from '../mcpAuth/grants.js';
import { checkStateChange, credentialOf, unauthenticated } from '../routes/_auth.js';
import { accountFailure, userFromRow } from '../routes/_call.js';
import { RouteError, requestIdOf } from '../routes/_errors.js';
import { isMcpToken, sha256 } from '../store/ids.js';
import {
  accountByRefSql,
  CREDENTIAL_COLUMNS_SQL,
  credentialFromRow,
  credentialKindsOf,
  type User,
} from '../store/users.js';

export /** Who calls: the signed-in user, for one account they belong to. */
interface McpCaller {
  readonly user: User;
  readonly accountId: string;
  readonly accountSlug: string;
  readonly requestId: string | undefined;
}

// The caller in one round trip, memoized like an action call's resolution (`routes/_call.ts`):
// the credential, the account `$3` names (id or slug) and the membership. Every rule is checked
// again on each request from the row (expiry against `services.now()` included).
const CALLER_SQL = `
SELECT u.id, u.email, u.name, u.is_platform_admin, ${CREDENTIAL_COLUMNS_SQL},
       acc.id AS account_id, acc.slug AS account_slug, m.role
FROM sessions s
JOIN users u ON u.id = s.user_id
LEFT JOIN (${accountByRefSql('$3')}) acc ON true
LEFT JOIN memberships m ON m.user_id = u.id AND m.account_id = acc.id
WHERE s.token_hash = $1 AND s.kind IN ($2, $4)`;

/**
 * The caller of `/mcp`: a bearer token (a personal access token or CLI session; the browser's
 * cookie is not taken) and `accountId` naming an account the user belongs to.
 */
export async function mcpCaller(services: HostServices, c: Context): Promise<McpCaller> {
  const credential = credentialOf(c);
  if (credential?.kind !== 'token' || !credential.secret) {
    throw new RouteError(
      401,
      'unauthorized',
      'Send a platform token as `Authorization: Bearer <token>` (create one with `POST /api/platform/tokens` while signed in, or an operator runs `platform-host admin token create --email <you>`).',
    );
  }
  if (c.req.method === 'POST') checkStateChange(services, c, { requireJson: false, credential: 'token' });
  if (isMcpToken(credential.secret)) return oauthCaller(services, c, credential.secret);
  const ref = c.req.query('accountId') ?? '';
  const kinds = credentialKindsOf('bearer');
  const params = [sha256(credential.secret), kinds[0], ref, kinds[1]] as const;
  const row = await services.cache.memoize(
    `mcp-caller:${JSON.stringify(params)}`,
    async () => (await services.db.query(CALLER_SQL, params)).rows[0],
    (found) => found !== undefined && found.role !== null,
  );
  if (row === undefined) throw unauthenticated(credential);
  const { failure } = credentialFromRow(row, services.now());
  if (failure !== undefined) throw unauthenticated(credential, failure);
  const account = accountFailure(
    row,
    ref,
    'Add the accountId query parameter naming the account whose tools to serve (its id or slug): /mcp?accountId=<account>.',
  );
  if (account !== undefined) throw account;
  return {
    user: userFromRow(row),
    accountId: row.account_id as string,
    accountSlug: row.account_slug as string,
    requestId: requestIdOf(c),
  };
}

// An OAuth access token the host issued to an MCP client: its grant names the user and the account
// chosen at consent (`?accountId`, when sent, must name that account). Not memoized: a revoked
// grant stops working at the next request.
const OAUTH_CALLER_SQL = `
SELECT g.id AS grant_id, t.expires_at, u.id, u.email, u.name, u.is_platform_admin,
       a.id AS account_id, a.slug AS account_slug, m.role
FROM mcp_tokens t
JOIN mcp_grants g ON g.id = t.grant_id
JOIN users u ON u.id = g.user_id
JOIN accounts a ON a.id = g.account_id
LEFT JOIN memberships m ON m.user_id = u.id AND m.account_id = a.id
WHERE t.token_hash = $1 AND t.kind = 'access' AND g.revoked_at IS NULL`;

async function oauthCaller(services: HostServices, c: Context, secret: string): Promise<McpCaller> {
  const now = services.now();
  const row = (await services.db.query(OAUTH_CALLER_SQL, [sha256(secret)])).rows[0];
  if (row === undefined || new Date(row.expires_at as string).getTime() <= now.getTime()) {
    throw new RouteError(401, 'unauthorized', 'The access token is unknown, expired or revoked.', {
      reason: 'invalid_token',
      hint: 'Refresh the token, or authorize the client again.',
    });
  }
  if (row.role === null) {
    throw new RouteError(
      403,
      'forbidden',
      `You are no longer a member of account "${row.account_slug as string}".`,
      {
        hint: 'Ask an owner of the account to add you again, then authorize the client again.',
      },
    );
  }
  const ref = c.req.query('accountId');
  if (ref !== undefined && ref !== row.account_id && ref !== row.account_slug) {
    throw new RouteError(
      403,
      'forbidden',
      `This token is for account "${row.account_slug as string}", not "${ref}".`,
      {
        hint: 'Leave out accountId: an OAuth token serves the account chosen when it was allowed.',
      },
    );
  }
  await noteGrantUse(services.db, row.grant_id as string, now);
  return {
    user: userFromRow(row),
    accountId: row.account_id as string,
    accountSlug: row.account_slug as string,
    requestId: requestIdOf(c),
  };
}
