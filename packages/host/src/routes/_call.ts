import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { Context } from 'hono';
import type { HostServices } from '../HostServices.js';
import { sha256 } from '../store/ids.js';
import { type InstalledVersion, readBundle, sourceServesAccountSql } from '../store/integrations.js';
import {
  accountByRefSql,
  CREDENTIAL_COLUMNS_SQL,
  type CredentialFailure,
  credentialFromRow,
  credentialKindsOf,
  type User,
  unknownAccount,
} from '../store/users.js';
import { credentialOf, noteUse, unauthenticated } from './_auth.js';
import { RouteError } from './_errors.js';

export interface CallTarget {
  readonly user: User;
  /** The resolved account id, whether the caller named the account by id or by slug. */
  readonly accountId: string;
  readonly version: InstalledVersion;
}

// Everything a call needs to be allowed, in one round trip: it runs before every action. `$3` is
// the account's id or slug; membership and activation join on the id it resolves to. The live
// version joins only when its source serves that account (the tenancy rule): otherwise the call
// is refused exactly like an unknown slug.
const RESOLVE_SQL = `
SELECT u.id, u.email, u.name, u.is_platform_admin, ${CREDENTIAL_COLUMNS_SQL}, acc.id AS account_id, m.role,
       v.id AS version_id, v.number, v.manifest, i.source_id,
       a.account_id IS NOT NULL AS active
FROM sessions s
JOIN users u ON u.id = s.user_id
LEFT JOIN (${accountByRefSql('$3')}) acc ON true
LEFT JOIN memberships m ON m.user_id = u.id AND m.account_id = acc.id
LEFT JOIN integrations i ON i.slug = $4
LEFT JOIN versions v ON v.id = i.live_version_id AND ${sourceServesAccountSql('i.source_id', 'acc.id')}
LEFT JOIN activations a ON a.integration_slug = i.slug AND a.account_id = acc.id
WHERE s.token_hash = $1 AND s.kind IN ($2, $5)`;

/**
 * Who calls which integration for which account: signed in, `accountId` (an account's id or slug)
 * naming an account (else 404 `account_not_found`) the user is a member of (else 403 `forbidden`),
 * the integration installed with a live version on a source that serves the account (else 404
 * `integration_not_found`, {@link integrationNotFound}), and (unless `allowInactive`) activated
 * for that account.
 * The row is memoized in `services.cache` (successes only, keyed by credential, account and slug):
 * a change to any table it reads is seen within the cache's bound, and every rule below, expiry
 * against `services.now()` included, is checked again on each call.
 */
export async function resolveCall(
  services: HostServices,
  c: Context,
  options: { allowInactive?: boolean } = {},
): Promise<CallTarget> {
  const credential = credentialOf(c);
  const slug = c.req.param('slug') ?? '';
  const accountRef = c.req.query('accountId') ?? '';
  const kinds = credentialKindsOf(credential?.kind === 'token' ? 'bearer' : 'cookie');
  let row: Record<string, unknown> | undefined;
  if (credential?.secret) {
    const params = [sha256(credential.secret), kinds[0], accountRef, slug, kinds[1]] as const;
    row = await services.cache.memoize(
      `call:${JSON.stringify(params)}`,
      async () => (await services.db.query(RESOLVE_SQL, params)).rows[0],
      (found) => found !== undefined && callFailure(services, found, accountRef, slug, true) === undefined,
    );
  }
  if (row === undefined) throw unauthenticated(credential);
  const failure = callFailure(services, row, accountRef, slug, options.allowInactive === true);
  if (failure instanceof RouteError) throw failure;
  if (failure !== undefined) throw unauthenticated(credential, failure);
  await noteUse(services, c, row.credential_id as string);
  const accountId = row.account_id as string;
  const versionId = row.version_id as string;
  return {
    user: userFromRow(row),
    accountId,
    version: {
      id: versionId,
      slug,
      number: row.number as number,
      sourceId: row.source_id as string,
      manifest: row.manifest as DefinitionManifest,
      loadBundle: () => readBundle(services.db, versionId),
    },
  };
}

/**
 * Why the account a resolved row names cannot be acted for, or undefined: no reference (400,
 * `missing` says what to add), no such account (404 `account_not_found`), not a member (403
 * `forbidden`). The row carries `account_id` and `role` (`accountByRefSql` joined with
 * `memberships`); the actions route and `/mcp` share these answers.
 */
export function accountFailure(
  row: Record<string, unknown>,
  accountRef: string,
  missing: string,
): RouteError | undefined {
  if (accountRef === '') return new RouteError(400, 'invalid_request', missing);
  if (row.account_id === null) {
    return new RouteError(
      404,
      'account_not_found',
      `${unknownAccount(accountRef)}; pass the id or slug of an account you belong to in accountId (GET /api/platform/me lists them).`,
    );
  }
  if (row.role === null) {
    return new RouteError(
      403,
      'forbidden',
      `You are not a member of account "${accountRef}"; ask an account owner to add you.`,
    );
  }
  return undefined;
}

/**
 * The one answer for a slug a caller cannot reach: not installed, no live version, or on a source
 * that does not serve the account. The same words for all three, so a refusal never tells another
 * tenant's integrations from slugs that do not exist.
 */
export function integrationNotFound(slug: string): RouteError {
  return new RouteError(404, 'integration_not_found', `No integration "${slug}" is installed on this host.`);
}

/** The user columns of a resolved row (`u.id, u.email, u.name, u.is_platform_admin`). */
export function userFromRow(row: Record<string, unknown>): User {
  return {
    id: row.id as string,
    email: row.email as string,
    name: row.name as string,
    isPlatformAdmin: row.is_platform_admin as boolean,
  };
}

/** Why a resolved row may not call (a credential failure, for the 401), or undefined: the checks in their order. */
function callFailure(
  services: HostServices,
  row: Record<string, unknown>,
  accountRef: string,
  slug: string,
  allowInactive: boolean,
): RouteError | CredentialFailure | undefined {
  // The same rule as every other route's sign-in (revoked, expired, waiting for a TOTP code).
  const { failure } = credentialFromRow(row, services.now());
  if (failure !== undefined) return failure;
  const account = accountFailure(
    row,
    accountRef,
    'Add the accountId query parameter naming the account to act for (its id or slug).',
  );
  if (account !== undefined) return account;
  if (row.version_id === null) return integrationNotFound(slug);
  if (!allowInactive && row.active !== true) {
    return new RouteError(
      403,
      'not_activated',
      `Integration "${slug}" is not activated for account "${accountRef}"; activate it first.`,
    );
  }
  return undefined;
}
