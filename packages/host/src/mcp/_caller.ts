import type { Context } from 'hono';
import type { HostServices } from '../HostServices.js';
import { checkStateChange, credentialOf, unauthenticated } from '../routes/_auth.js';
import { accountFailure, userFromRow } from '../routes/_call.js';
import { RouteError, requestIdOf } from '../routes/_errors.js';
import { sha256 } from '../store/ids.js';
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
