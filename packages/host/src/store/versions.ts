import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { CheckStatus, Finding, VersionStatus, VersionView } from '@platform/wire';
import type { Queryable } from '../db/Db.js';
import { type Review, reviewManifest } from '../gate/index.js';
import { makeLive } from './integrations.js';

// Versions as the CLI and the admin see them, and the admin's decisions on them (promote, reject,
// roll back). A submission's life (stored, checked, its verdict) is `publish/submissions.ts`'s.

/** One check of a submission, as stored (the log is a capped tail). */
export interface StoredCheck {
  readonly name: string;
  readonly status: CheckStatus;
  readonly ms?: number;
  readonly log?: string;
}

const iso = (value: unknown): string | null =>
  value == null ? null : new Date(value as string).toISOString();

const VIEW_COLUMNS = `v.id, v.integration_slug, v.number, v.status, v.created_at, v.verdict_at, v.submission_id, v.decision,
  s.slug AS source_slug, (i.live_version_id = v.id) AS live, sub.checks`;
const VIEW_FROM = `versions v JOIN integrations i ON i.slug = v.integration_slug JOIN sources s ON s.id = i.source_id
  LEFT JOIN submissions sub ON sub.id = v.submission_id`;

// What a review is computed from: the version's manifest and the integration's live version now.
const REVIEW_COLUMNS = 'v.review, v.manifest, lv.number AS live_number, lv.manifest AS live_manifest';
const REVIEW_FROM = 'LEFT JOIN versions lv ON lv.id = i.live_version_id';

/**
 * A version's review: for a `gated` version still waiting for a decision, computed against the
 * version live now (what promoting it would change today, whatever was live at gate time); for
 * any other, the review recorded with it (at gate time, or at promotion).
 */
function reviewOf(row: Record<string, unknown>): Review | null {
  const stored = (row.review as Review | null) ?? null;
  if (row.status !== 'gated' || row.decision != null || row.live === true || row.manifest == null)
    return stored;
  return reviewManifest(
    row.manifest as DefinitionManifest,
    row.live_number == null
      ? undefined
      : { number: row.live_number as number, manifest: row.live_manifest as DefinitionManifest },
  );
}

function toView(row: Record<string, unknown>): VersionView {
  const checks = ((row.checks as StoredCheck[] | null) ?? []).map(({ name, status, ms }) => ({
    name,
    status,
    ...(ms === undefined ? {} : { ms }),
  }));
  return {
    id: row.id as string,
    slug: row.integration_slug as string,
    number: row.number as number,
    source: row.source_slug as string,
    status: row.status as VersionStatus,
    live: row.live === true,
    createdAt: iso(row.created_at)!,
    verdictAt: iso(row.verdict_at),
    submissionId: (row.submission_id as string | null) ?? null,
    decision: (row.decision as VersionView['decision']) ?? null,
    checks,
  };
}

/**
 * A source's versions, newest first: those of its latest submission (and every integration's live
 * version), or with `all` every version.
 */
export async function listSourceVersions(
  db: Queryable,
  sourceId: string,
  options: { all: boolean },
): Promise<VersionView[]> {
  const { rows } = await db.query(
    `SELECT ${VIEW_COLUMNS} FROM ${VIEW_FROM}
     WHERE i.source_id = $1 AND ($2::boolean OR v.submission_id = (
       SELECT id FROM submissions WHERE source_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1))
     ORDER BY v.created_at DESC, v.integration_slug, v.number DESC`,
    [sourceId, options.all],
  );
  return rows.map(toView);
}

/** Versions with a given status across every source (the admin's review queue), oldest first, each with its review. */
export async function listVersionsByStatus(
  db: Queryable,
  status: VersionStatus,
): Promise<(VersionView & { review: Review | null })[]> {
  const { rows } = await db.query(
    `SELECT ${VIEW_COLUMNS}, ${REVIEW_COLUMNS} FROM ${VIEW_FROM} ${REVIEW_FROM} WHERE v.status = $1 AND v.decision IS NULL ORDER BY v.created_at, v.number`,
    [status],
  );
  return rows.map((row) => ({ ...toView(row), review: reviewOf(row) }));
}

export interface VersionDetail {
  readonly version: VersionView;
  readonly sourceId: string;
  readonly findings: readonly Finding[];
  readonly checks: readonly StoredCheck[];
  readonly review: Review | null;
  readonly decisionReason: string | null;
}

export async function findVersion(db: Queryable, id: string): Promise<VersionDetail | undefined> {
  const { rows } = await db.query(
    `SELECT ${VIEW_COLUMNS}, i.source_id, sub.findings, v.decision_reason, ${REVIEW_COLUMNS} FROM ${VIEW_FROM} ${REVIEW_FROM} WHERE v.id = $1`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const slug = row.integration_slug as string;
  // A submission's findings cover every integration it carries: show this one's and the shared ones.
  const findings = ((row.findings as (Finding & { slug?: string })[] | null) ?? []).filter(
    (finding) => finding.slug === undefined || finding.slug === slug,
  );
  return {
    version: toView(row),
    sourceId: row.source_id as string,
    findings,
    checks: (row.checks as StoredCheck[] | null) ?? [],
    review: reviewOf(row),
    decisionReason: (row.decision_reason as string | null) ?? null,
  };
}

/** Why a promotion, rejection or rollback was refused; nothing changed. */
export class DecisionError extends Error {
  constructor(
    readonly code: 'version_not_found' | 'conflict',
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/**
 * Makes a `gated` version live for every account of its integration, in one transaction: a
 * refusal changes nothing. Calls already running finish on the version they started with.
 */
export async function promoteVersion(
  tx: Queryable,
  input: { versionId: string; userId: string | null; now: Date },
): Promise<VersionView> {
  const row = await lockDecidable(tx, input.versionId);
  if (row.status !== 'gated' || row.live) {
    throw new DecisionError(
      'conflict',
      `Version ${row.slug} v${row.number} is ${row.live ? 'already live' : row.status}; only a gated version can be promoted.`,
      'List the versions waiting for review with `platform-host admin version list`.',
    );
  }
  // Reviewed against what is live now, under the lock: what the admin saw in `version review`.
  const { rows } = await tx.query(
    `SELECT v.manifest, lv.number AS live_number, lv.manifest AS live_manifest
     FROM versions v JOIN integrations i ON i.slug = v.integration_slug ${REVIEW_FROM} WHERE v.id = $1`,
    [input.versionId],
  );
  const now = rows[0]!;
  if (now.live_number != null && (now.live_number as number) > row.number) {
    throw new DecisionError(
      'conflict',
      `Version ${row.slug} v${row.number} is older than the live v${now.live_number as number}; promoting it would go back.`,
      `Promote a newer version, or go back on purpose with \`platform-host admin integration rollback ${row.slug}\`.`,
    );
  }
  const review = reviewManifest(
    now.manifest as DefinitionManifest,
    now.live_number == null
      ? undefined
      : { number: now.live_number as number, manifest: now.live_manifest as DefinitionManifest },
  );
  await tx.query(
    `UPDATE versions SET decision = 'promoted', decided_by = $2, decided_at = $3, review = $4::jsonb WHERE id = $1`,
    [input.versionId, input.userId, input.now, JSON.stringify(review)],
  );
  await makeLive(tx, { slug: row.slug, versionId: input.versionId, reason: 'promote', userId: input.userId });
  return (await findVersion(tx, input.versionId))!.version;
}

/** Refuses a `gated` version after review: it becomes `rejected` with the reason. */
export async function rejectVersion(
  tx: Queryable,
  input: { versionId: string; userId: string | null; reason: string; now: Date },
): Promise<VersionView> {
  const row = await lockDecidable(tx, input.versionId);
  if (row.status !== 'gated' || row.live) {
    throw new DecisionError(
      'conflict',
      `Version ${row.slug} v${row.number} is ${row.live ? 'live' : row.status}; only a gated version waiting for review can be rejected.`,
      row.live
        ? `Roll it back with \`platform-host admin integration rollback ${row.slug}\`.`
        : 'List the versions waiting for review with `platform-host admin version list`.',
    );
  }
  await tx.query(
    `UPDATE versions SET status = 'rejected', decision = 'rejected', decision_reason = $2, decided_by = $3, decided_at = $4 WHERE id = $1`,
    [input.versionId, input.reason, input.userId, input.now],
  );
  return (await findVersion(tx, input.versionId))!.version;
}

/**
 * Puts back the version that was live before the current one (skipping versions rolled back
 * before), marking the current one `rolled_back`. One transaction; nothing changes on refusal.
 */
export async function rollbackIntegration(
  tx: Queryable,
  input: { slug: string; userId: string | null; now: Date },
): Promise<{ from: VersionView; to: VersionView }> {
  const current = await tx.query('SELECT live_version_id FROM integrations WHERE slug = $1 FOR UPDATE', [
    input.slug,
  ]);
  if (current.rowCount === 0) {
    throw new DecisionError(
      'version_not_found',
      `No integration "${input.slug}".`,
      'Check the slug with `platform-host admin version list --all`.',
    );
  }
  const currentId = current.rows[0]!.live_version_id as string | null;
  if (currentId === null) {
    throw new DecisionError(
      'conflict',
      `Integration "${input.slug}" has no live version.`,
      'Promote a gated version first.',
    );
  }
  const previous = await tx.query(
    `SELECT h.version_id FROM live_history h JOIN versions v ON v.id = h.version_id
     WHERE h.integration_slug = $1 AND h.version_id <> $2 AND v.decision IS DISTINCT FROM 'rolled_back'
       AND v.status IN ('dev', 'gated')
     ORDER BY h.id DESC LIMIT 1`,
    [input.slug, currentId],
  );
  const targetId = previous.rows[0]?.version_id as string | undefined;
  if (targetId === undefined) {
    throw new DecisionError(
      'conflict',
      `Integration "${input.slug}" has no earlier live version to go back to.`,
      'Publish a fixed version instead.',
    );
  }
  await tx.query(
    `UPDATE versions SET decision = 'rolled_back', decided_by = $2, decided_at = $3 WHERE id = $1`,
    [currentId, input.userId, input.now],
  );
  await makeLive(tx, { slug: input.slug, versionId: targetId, reason: 'rollback', userId: input.userId });
  return {
    from: (await findVersion(tx, currentId))!.version,
    to: (await findVersion(tx, targetId))!.version,
  };
}

async function lockDecidable(
  tx: Queryable,
  versionId: string,
): Promise<{ slug: string; number: number; status: VersionStatus; live: boolean }> {
  const { rows } = await tx.query(
    `SELECT v.integration_slug, v.number, v.status, (i.live_version_id = v.id) AS live
     FROM versions v JOIN integrations i ON i.slug = v.integration_slug WHERE v.id = $1 FOR UPDATE OF i, v`,
    [versionId],
  );
  const row = rows[0];
  if (row === undefined) {
    throw new DecisionError(
      'version_not_found',
      `No version ${versionId}.`,
      'List versions with `platform-host admin version list`.',
    );
  }
  return {
    slug: row.integration_slug as string,
    number: row.number as number,
    status: row.status as VersionStatus,
    live: row.live === true,
  };
}
