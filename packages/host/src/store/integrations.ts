import type { StoredListing } from '@platform/integration-schema';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { Queryable } from '../db/Db.js';
import { newId } from './ids.js';

export type SourceStage = 'development' | 'production';
export type SeatRole = 'owner' | 'publisher' | 'viewer';

export interface Source {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly stage: SourceStage;
}

/** An installed version as the routes and the runtime need it; the bundle is read only when a runtime first loads it. */
export interface InstalledVersion {
  readonly id: string;
  readonly slug: string;
  readonly number: number;
  readonly sourceId: string;
  readonly manifest: DefinitionManifest;
  loadBundle(): Promise<string>;
}

/** Thrown when a slug belongs to another source. */
export class SlugTakenError extends Error {
  constructor(
    readonly slug: string,
    readonly ownerSource: string,
  ) {
    super(`Integration "${slug}" belongs to source "${ownerSource}".`);
  }
}

/**
 * The next version number of `slug` for `source`, in the caller's transaction: creates the
 * integration (owned by `source`) on its first version, and locks its row so concurrent versions
 * never share a number. A slug another source owns throws `SlugTakenError`.
 */
export async function nextVersionNumber(tx: Queryable, slug: string, source: Source): Promise<number> {
  await tx.query(
    'INSERT INTO integrations (slug, source_id, name) VALUES ($1, $2, $1) ON CONFLICT (slug) DO NOTHING',
    [slug, source.id],
  );
  const owner = await tx.query(
    `SELECT s.id, s.slug FROM integrations i JOIN sources s ON s.id = i.source_id WHERE i.slug = $1 FOR UPDATE OF i`,
    [slug],
  );
  const ownerRow = owner.rows[0]!;
  if (ownerRow.id !== source.id) throw new SlugTakenError(slug, ownerRow.slug as string);
  const { rows } = await tx.query(
    'SELECT COALESCE(MAX(number), 0)::int + 1 AS next FROM versions WHERE integration_slug = $1',
    [slug],
  );
  return rows[0]!.next as number;
}

/** Points an integration at a version and records it in the live history. */
export async function makeLive(
  tx: Queryable,
  input: {
    slug: string;
    versionId: string;
    reason: 'install' | 'dev' | 'promote' | 'rollback';
    userId: string | null;
  },
): Promise<void> {
  await tx.query('UPDATE integrations SET live_version_id = $1 WHERE slug = $2', [
    input.versionId,
    input.slug,
  ]);
  await tx.query(
    'INSERT INTO live_history (integration_slug, version_id, reason, made_live_by) VALUES ($1, $2, $3, $4)',
    [input.slug, input.versionId, input.reason, input.userId],
  );
}

/** A version's bundle (large: it carries the partner's dependencies). */
export async function readBundle(db: Queryable, versionId: string): Promise<string> {
  const { rows } = await db.query('SELECT bundle FROM versions WHERE id = $1', [versionId]);
  const bundle = rows[0]?.bundle;
  if (typeof bundle !== 'string') throw new Error(`version ${versionId} has no bundle`);
  return bundle;
}

/**
 * What a widget frame needs of a version: its slug, the widgets its manifest declares and its
 * browser bundle (undefined when the version has none), or undefined for an unknown version or
 * one the gate has not passed (submitted, checking, rejected): only `dev`, `gated` and `live`
 * versions' code is served to browsers.
 */
export async function findBrowserBundle(
  db: Queryable,
  versionId: string,
): Promise<
  | {
      readonly slug: string;
      readonly widgets: readonly { readonly id: string; readonly name: string }[];
      /** The listing's name, else the slug (a tile's or activation form's frame title). */
      readonly name: string;
      /** Whether the bundle exports a `tile` and an `activationForm` (the listing records it). */
      readonly tile: boolean;
      readonly activationForm: boolean;
      readonly code: string | undefined;
    }
  | undefined
> {
  const { rows } = await db.query(
    "SELECT integration_slug, manifest, listing, browser_bundle FROM versions WHERE id = $1 AND status IN ('dev', 'gated', 'live')",
    [versionId],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const manifest = row.manifest as DefinitionManifest;
  const listing = (row.listing ?? {}) as StoredListing;
  return {
    slug: row.integration_slug as string,
    widgets: (manifest.widgets ?? []).map((widget) => ({ id: widget.id, name: widget.name })),
    name: listing.name ?? (row.integration_slug as string),
    tile: listing.tile === true,
    activationForm: listing.activationForm === true,
    code: typeof row.browser_bundle === 'string' ? row.browser_bundle : undefined,
  };
}

export async function createSource(
  db: Queryable,
  input: { slug: string; name: string; stage: SourceStage },
): Promise<Source> {
  const id = newId();
  await db.query('INSERT INTO sources (id, slug, name, stage) VALUES ($1, $2, $3, $4)', [
    id,
    input.slug,
    input.name,
    input.stage,
  ]);
  return { id, ...input };
}

export async function findSource(db: Queryable, idOrSlug: string): Promise<Source | undefined> {
  const { rows } = await db.query('SELECT id, slug, name, stage FROM sources WHERE id = $1 OR slug = $1', [
    idOrSlug,
  ]);
  return rows[0] as Source | undefined;
}

export async function addSeat(
  db: Queryable,
  sourceId: string,
  userId: string,
  role: SeatRole,
): Promise<void> {
  await db.query(
    `INSERT INTO seats (source_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (source_id, user_id) DO UPDATE SET role = excluded.role`,
    [sourceId, userId, role],
  );
}

/**
 * The one rule of tenancy, as SQL: a source serves an account when `source_accounts` says so, and
 * only then is a version on that source live for the account (activation, calls, the marketplace,
 * the tool catalog, webhooks). `source` and `account` are SQL expressions (columns or parameters).
 * @example `WHERE ${sourceServesAccountSql('i.source_id', '$1')}`
 */
export function sourceServesAccountSql(source: string, account: string): string {
  return `EXISTS (SELECT 1 FROM source_accounts sa WHERE sa.source_id = ${source} AND sa.account_id = ${account})`;
}

/** Serves an account from a source (its live versions reach the account); again changes nothing. */
export async function addSourceAccount(db: Queryable, sourceId: string, accountId: string): Promise<void> {
  await db.query(
    'INSERT INTO source_accounts (source_id, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [sourceId, accountId],
  );
}

/**
 * Stops serving an account from a source; says whether it was served. The account's activations
 * stay (serving it again restores them) but every call, tool and delivery through them stops: the
 * statement bumps the cache epoch (migration 0015), so no instance keeps a cached resolution.
 */
export async function removeSourceAccount(
  db: Queryable,
  sourceId: string,
  accountId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM source_accounts WHERE source_id = $1 AND account_id = $2',
    [sourceId, accountId],
  );
  return rowCount > 0;
}

/** Whether a source serves an account ({@link sourceServesAccountSql} as a question). */
export async function sourceServesAccount(
  db: Queryable,
  sourceId: string,
  accountId: string,
): Promise<boolean> {
  const { rows } = await db.query(`SELECT ${sourceServesAccountSql('$1', '$2')} AS served`, [
    sourceId,
    accountId,
  ]);
  return rows[0]?.served === true;
}

/**
 * Thrown when an activation is refused because no source serving the account carries the
 * integration. Routes answer it like an unknown slug (other tenants' names stay unknown); the
 * admin CLI names the fix (`platform-host admin source-account add`).
 */
export class SourceDoesNotServeError extends Error {
  override readonly name = 'SourceDoesNotServeError';
  constructor(
    readonly slug: string,
    readonly accountId: string,
  ) {
    super(`The source of integration "${slug}" does not serve account ${accountId}.`);
  }
}

/**
 * Records a new version of an integration (creating the integration on its first version) and,
 * for `dev` on a development source, makes it live at once. One transaction's worth of statements.
 */
export async function addVersion(
  db: Queryable,
  input: {
    source: Source;
    manifest: DefinitionManifest;
    bundle: string;
    status: 'dev' | 'gated';
    /** The platform.json listing (checked: `readProjectListing`); none when absent. */
    listing?: StoredListing;
    /** The widgets' browser bundle (`bundle/buildBrowserBundle.ts`), when the version has widgets. */
    browserBundle?: StoredBrowserBundle | undefined;
  },
): Promise<InstalledVersion> {
  const slug = input.manifest.slug;
  let number: number;
  try {
    number = await nextVersionNumber(db, slug, input.source);
  } catch (error) {
    if (!(error instanceof SlugTakenError)) throw error;
    throw new Error(
      `integration "${slug}" belongs to source "${error.ownerSource}"; publish it from that source or pick another slug`,
    );
  }
  const id = newId();
  await db.query(
    `INSERT INTO versions (id, integration_slug, number, status, manifest, bundle, listing)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)`,
    [
      id,
      slug,
      number,
      input.status,
      JSON.stringify(input.manifest),
      input.bundle,
      JSON.stringify(input.listing ?? {}),
    ],
  );
  await setBrowserBundle(db, id, input.browserBundle);
  if (input.status === 'dev' && input.source.stage === 'development') {
    await makeLive(db, { slug, versionId: id, reason: 'install', userId: null });
  }
  const bundle = input.bundle;
  return {
    id,
    slug,
    number,
    sourceId: input.source.id,
    manifest: input.manifest,
    loadBundle: async () => bundle,
  };
}

/** A version's widgets' browser bundle and its gzip size (or none), as install and the gate record it. */
export type StoredBrowserBundle = { readonly code: string; readonly gzipBytes: number };

/**
 * Records a version's browser bundle (`bundle/buildBrowserBundle.ts`) and its gzip size, which
 * widget frames load and validate and the gate report; `undefined` clears both (no widgets).
 */
export async function setBrowserBundle(
  db: Queryable,
  versionId: string,
  browserBundle: StoredBrowserBundle | undefined,
): Promise<void> {
  await db.query('UPDATE versions SET browser_bundle = $2, browser_bundle_gzip_bytes = $3 WHERE id = $1', [
    versionId,
    browserBundle?.code ?? null,
    browserBundle?.gzipBytes ?? null,
  ]);
}

/** The version that serves an integration now, or undefined when it has none. */
export async function liveVersion(db: Queryable, slug: string): Promise<InstalledVersion | undefined> {
  const { rows } = await db.query(
    `SELECT v.id, v.integration_slug, v.number, v.manifest, i.source_id
     FROM integrations i JOIN versions v ON v.id = i.live_version_id WHERE i.slug = $1`,
    [slug],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    id: row.id as string,
    slug: row.integration_slug as string,
    number: row.number as number,
    sourceId: row.source_id as string,
    manifest: row.manifest as DefinitionManifest,
    loadBundle: () => readBundle(db, row.id as string),
  };
}

export interface Activation {
  readonly data: unknown;
  readonly activatedAt: Date;
  readonly updatedAt: Date;
}

export async function findActivation(
  db: Queryable,
  slug: string,
  accountId: string,
): Promise<Activation | undefined> {
  const { rows } = await db.query(
    'SELECT data, activated_at, updated_at FROM activations WHERE integration_slug = $1 AND account_id = $2',
    [slug, accountId],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return { data: row.data ?? null, activatedAt: row.activated_at as Date, updatedAt: row.updated_at as Date };
}

// The activation is written only while the integration's source serves the account, and the
// `source_accounts` row is held (FOR KEY SHARE) until the statement's transaction ends: a
// concurrent `removeSourceAccount` waits for it, or wins and leaves nothing to insert. Either way
// no activation is recorded for an account its source no longer serves.
const UPSERT_ACTIVATION_SQL = `
WITH served AS (
  SELECT 1 FROM integrations i
  JOIN source_accounts sa ON sa.source_id = i.source_id AND sa.account_id = $2
  WHERE i.slug = $1
  FOR KEY SHARE OF sa
)
INSERT INTO activations (integration_slug, account_id, activated_by, data, consented_version_id)
SELECT $1, $2, $3, $4::jsonb, $5 WHERE EXISTS (SELECT 1 FROM served)
ON CONFLICT (integration_slug, account_id) DO UPDATE SET data = excluded.data, updated_at = now(),
  consented_version_id = COALESCE(excluded.consented_version_id, activations.consented_version_id)
RETURNING (xmax = 0) AS created`;

/**
 * Activates (or updates the data of) an integration for an account; says whether it was new.
 * Throws {@link SourceDoesNotServeError} when the integration's source does not serve the account.
 */
export async function upsertActivation(
  db: Queryable,
  input: {
    slug: string;
    accountId: string;
    userId: string;
    data: unknown;
    /** The version the account consents to (activating, or activating again); kept when absent. */
    consentedVersionId?: string;
  },
): Promise<{ created: boolean }> {
  const { rows } = await db.query(UPSERT_ACTIVATION_SQL, [
    input.slug,
    input.accountId,
    input.userId,
    JSON.stringify(input.data ?? null),
    input.consentedVersionId ?? null,
  ]);
  const row = rows[0];
  if (row === undefined) throw new SourceDoesNotServeError(input.slug, input.accountId);
  return { created: row.created === true };
}

export async function deleteActivation(db: Queryable, slug: string, accountId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM activations WHERE integration_slug = $1 AND account_id = $2',
    [slug, accountId],
  );
  return rowCount > 0;
}
