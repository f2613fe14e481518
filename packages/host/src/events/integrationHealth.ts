import type { HealthItem, WidgetHealth } from '@platform/wire';
import type { Queryable } from '../db/Db.js';
import { findOAuthConnection, type OAuthConnection } from '../oauth/oauthConnections.js';

/** What integrationHealth reads of an integration: its slug and whether it declares OAuth. */
export interface HealthSubject {
  readonly slug: string;
  readonly name: string;
  readonly manifest: { readonly oauth?: unknown };
}

// The last finished run of each webhook and schedule: a run that failed is news only while no
// later run of the same target succeeded.
const LAST_RUNS_SQL = `
SELECT DISTINCT ON (integration_slug, kind, payload->>'target')
       integration_slug, kind, payload->>'target' AS target, status, last_error, finished_at
FROM jobs
WHERE account_id = $1 AND integration_slug = ANY($2::text[]) AND kind IN ('webhook', 'schedule')
  AND status IN ('succeeded', 'failed')
ORDER BY integration_slug, kind, payload->>'target', finished_at DESC NULLS LAST, created_at DESC`;

/**
 * The health of each integration in an account, what its widgets' footers show: `attention` when
 * the account has not connected an integration that declares OAuth, `error` when its connection
 * cannot refresh its token (`backoff`, `exhausted`, `revoked`: the item carries the last failure's
 * time and reason) or when the last run of
 * one of its webhooks (a delivery) or schedules failed (with its stored, redacted error), else
 * `ok`. Failed actions are not kept anywhere (the actions route answers them and logs them), so
 * no `action` item comes from here.
 * @example const health = await integrationHealth(db, accountId, integrations); health.get('acme-notes')
 */
export async function integrationHealth(
  db: Queryable,
  accountId: string,
  subjects: readonly HealthSubject[],
): Promise<Map<string, WidgetHealth>> {
  const items = new Map<string, HealthItem[]>(subjects.map((subject) => [subject.slug, []]));
  // One statement at a time: `db` may be a transaction, one connection.
  for (const subject of subjects) {
    if (subject.manifest.oauth === undefined) continue;
    const connection = await findOAuthConnection(db, subject.slug, accountId);
    if (connection === undefined) {
      items.get(subject.slug)?.push({
        kind: 'oauth',
        message: `${subject.name} is not connected; an owner or admin of the account connects it.`,
      });
      continue;
    }
    const broken = brokenConnection(subject.name, connection);
    if (broken !== undefined) items.get(subject.slug)?.push(broken);
  }
  const { rows } = await db.query(LAST_RUNS_SQL, [accountId, subjects.map((subject) => subject.slug)]);
  for (const row of rows) {
    if (row.status !== 'failed') continue;
    const target = row.target as string;
    const error = (row.last_error as string | null) ?? 'no error recorded';
    const failed: HealthItem =
      row.kind === 'webhook'
        ? { kind: 'delivery', message: `The delivery to webhook "${target}" failed: ${error}` }
        : { kind: 'schedule', message: `The run of schedule "${target}" failed: ${error}` };
    const at = row.finished_at === null ? undefined : new Date(row.finished_at as string).toISOString();
    items.get(row.integration_slug as string)?.push(at === undefined ? failed : { ...failed, at });
  }
  const health = new Map<string, WidgetHealth>();
  for (const [slug, found] of items) {
    const status = found.some((item) => item.kind !== 'oauth' || item.at !== undefined)
      ? 'error'
      : found.length > 0
        ? 'attention'
        : 'ok';
    health.set(slug, { status, items: found });
  }
  return health;
}

/** The item a connection that cannot refresh its token shows (backoff, exhausted, revoked), else undefined. */
function brokenConnection(name: string, connection: OAuthConnection): HealthItem | undefined {
  const reason = connection.lastFailureReason ?? 'no reason recorded';
  const at = connection.lastFailureAt?.toISOString() ?? connection.connectedAt.toISOString();
  switch (connection.state) {
    case 'backoff':
      return {
        kind: 'oauth',
        at,
        message: `${name}'s connection failed to refresh its token (${reason}); the host retries${connection.nextRefreshAt === undefined ? '' : ` at ${connection.nextRefreshAt.toISOString()}`}.`,
      };
    case 'exhausted':
      return {
        kind: 'oauth',
        at,
        message: `${name}'s connection has failed to refresh its token for days (${reason}); an owner or admin of the account connects it again.`,
      };
    case 'revoked':
      return {
        kind: 'oauth',
        at,
        message: `${name}'s connection was revoked at the provider (${reason}); an owner or admin of the account connects it again.`,
      };
    default:
      return undefined;
  }
}
