import { createHash } from 'node:crypto';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { CheckStatus, Finding, VersionStatus, VersionView } from '@platform/wire';
import type { Queryable } from '../db/Db.js';
import { enqueueJob } from '../events/jobs.js';
import { GATE_CHECKS, type GateIntegration } from '../gate/index.js';
import { type Review, reviewManifest } from '../publish/review.js';
import { newId } from './ids.js';
import type { Source } from './integrations.js';

// The views this store answers with are the wire contract's (@platform/wire), re-exported here.
export type { CheckStatus, Finding, VersionStatus, VersionView };

/** One check of a submission, as stored (the log is a capped tail). */
export interface StoredCheck {
  readonly name: string;
  readonly status: CheckStatus;
  readonly ms?: number;
  readonly log?: string;
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

/** The pending list a new submission shows before the gate starts. */
const pendingChecks = (): StoredCheck[] => GATE_CHECKS.map((name) => ({ name, status: 'pending' }));

/** Attempts a gate job gets: a host killed mid-check leaves the job to the next claim. */
export const GATE_JOB_ATTEMPTS = 3;

/**
 * Stores an uploaded project and a `submitted` version of each integration it carries, and queues
 * its gate job, in the caller's transaction. A slug another source owns refuses the whole
 * submission (`SlugTakenError`); a new slug becomes this source's.
 */
export async function createSubmission(
  tx: Queryable,
  input: { source: Source; userId: string; archive: Buffer; slugs: readonly string[]; now: Date },
): Promise<{ submissionId: string; versions: { id: string; slug: string; number: number }[] }> {
  const submissionId = newId();
  await tx.query(
    `INSERT INTO submissions (id, source_id, user_id, archive, archive_sha256, checks) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
    [
      submissionId,
      input.source.id,
      input.userId,
      input.archive,
      createHash('sha256').update(input.archive).digest('hex'),
      JSON.stringify(pendingChecks()),
    ],
  );
  const versions: { id: string; slug: string; number: number }[] = [];
  for (const slug of input.slugs) {
    const number = await nextVersionNumber(tx, slug, input.source);
    const id = newId();
    await tx.query(
      `INSERT INTO versions (id, integration_slug, number, status, submission_id) VALUES ($1, $2, $3, 'submitted', $4)`,
      [id, slug, number, submissionId],
    );
    versions.push({ id, slug, number });
  }
  await enqueueJob(tx, {
    kind: 'gate',
    slug: input.slugs[0]!,
    accountId: null,
    versionId: null,
    target: submissionId,
    maxAttempts: GATE_JOB_ATTEMPTS,
    runAt: input.now,
  });
  return { submissionId, versions };
}

const iso = (value: unknown): string | null =>
  value == null ? null : new Date(value as string).toISOString();

const VIEW_COLUMNS = `v.id, v.integration_slug, v.number, v.status, v.created_at, v.verdict_at, v.submission_id, v.decision,
  s.slug AS source_slug, (i.live_version_id = v.id) AS live, sub.checks`;
const VIEW_FROM = `versions v JOIN integrations i ON i.slug = v.integration_slug JOIN sources s ON s.id = i.source_id
  LEFT JOIN submissions sub ON sub.id = v.submission_id`;

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
    `SELECT ${VIEW_COLUMNS}, v.review FROM ${VIEW_FROM} WHERE v.status = $1 AND v.decision IS NULL ORDER BY v.created_at, v.number`,
    [status],
  );
  return rows.map((row) => ({ ...toView(row), review: (row.review as Review | null) ?? null }));
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
    `SELECT ${VIEW_COLUMNS}, i.source_id, sub.findings, v.review, v.decision_reason FROM ${VIEW_FROM} WHERE v.id = $1`,
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
    review: (row.review as Review | null) ?? null,
    decisionReason: (row.decision_reason as string | null) ?? null,
  };
}

/** One integration the gate built: what the runtime will run. */
export type BuiltIntegration = GateIntegration;

/** Marks a submission's checking as started (a retried gate job starts it again). */
export async function startChecking(db: Queryable, submissionId: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE submissions SET status = 'checking', started_at = $2, attempts = attempts + 1, checks = $3::jsonb WHERE id = $1`,
    [submissionId, now, JSON.stringify(pendingChecks())],
  );
  await db.query(`UPDATE versions SET status = 'checking' WHERE submission_id = $1`, [submissionId]);
}

/**
 * Stores the gate's verdict for every version of a submission, in the caller's transaction:
 * `rejected`; or, with every integration built, `dev` on a development source (live at once) or
 * `gated` on a production source, with the review against the live version.
 */
export async function recordVerdict(
  tx: Queryable,
  input: {
    submissionId: string;
    checks: readonly StoredCheck[];
    findings: readonly Finding[];
    built: readonly BuiltIntegration[] | undefined;
    now: Date;
  },
): Promise<void> {
  const source = await tx.query(
    `SELECT src.stage, sub.user_id FROM submissions sub JOIN sources src ON src.id = sub.source_id WHERE sub.id = $1`,
    [input.submissionId],
  );
  const stage = source.rows[0]?.stage as 'development' | 'production' | undefined;
  const userId = (source.rows[0]?.user_id as string | null) ?? null;
  const versions = await tx.query(
    'SELECT id, integration_slug FROM versions WHERE submission_id = $1 ORDER BY integration_slug',
    [input.submissionId],
  );
  const findings = [...input.findings];
  const builtBySlug = new Map(input.built?.map((item) => [item.slug, item]));
  for (const row of versions.rows) {
    if (input.built !== undefined && !builtBySlug.has(row.integration_slug as string)) {
      findings.push({
        check: 'bundle',
        severity: 'error',
        code: 'bundle.missing',
        message: `The gate built no bundle for "${row.integration_slug}".`,
        hint: 'Check that platform.json lists it with the right entry.',
      });
    }
  }
  const passed = input.built !== undefined && !findings.some((finding) => finding.severity === 'error');
  await tx.query(
    `UPDATE submissions SET status = $2, checks = $3::jsonb, findings = $4::jsonb, finished_at = $5 WHERE id = $1`,
    [
      input.submissionId,
      passed ? 'passed' : 'rejected',
      JSON.stringify(input.checks),
      JSON.stringify(findings),
      input.now,
    ],
  );
  for (const row of versions.rows) {
    const id = row.id as string;
    const slug = row.integration_slug as string;
    const built = builtBySlug.get(slug);
    if (!passed || built === undefined) {
      await tx.query(`UPDATE versions SET status = 'rejected', verdict_at = $2 WHERE id = $1`, [
        id,
        input.now,
      ]);
      continue;
    }
    const status = stage === 'development' ? 'dev' : 'gated';
    const live = await tx.query(
      `SELECT v.number, v.manifest FROM integrations i JOIN versions v ON v.id = i.live_version_id WHERE i.slug = $1 FOR UPDATE OF i`,
      [slug],
    );
    const liveRow = live.rows[0];
    const review = reviewManifest(
      built.manifest,
      liveRow === undefined
        ? undefined
        : { number: liveRow.number as number, manifest: liveRow.manifest as DefinitionManifest },
    );
    await tx.query(
      `UPDATE versions SET status = $2, manifest = $3::jsonb, bundle = $4, review = $5::jsonb, verdict_at = $6 WHERE id = $1`,
      [id, status, JSON.stringify(built.manifest), built.bundle, JSON.stringify(review), input.now],
    );
    if (status === 'dev') await makeLive(tx, { slug, versionId: id, reason: 'dev', userId });
  }
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
  await tx.query(
    `UPDATE versions SET decision = 'promoted', decided_by = $2, decided_at = $3 WHERE id = $1`,
    [input.versionId, input.userId, input.now],
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

/** Rejects a submission whose gate job could not finish (its attempts ran out). */
export async function abandonSubmission(tx: Queryable, submissionId: string, now: Date): Promise<void> {
  const finding: Finding = {
    check: 'gate',
    severity: 'error',
    code: 'gate.interrupted',
    message: `The gate stopped ${GATE_JOB_ATTEMPTS} times before it finished checking this submission.`,
    hint: 'Publish again; if it happens again, ask the host operator to look at the host log.',
  };
  const { rowCount } = await tx.query(
    `UPDATE submissions SET status = 'rejected', findings = $2::jsonb, finished_at = $3 WHERE id = $1 AND status IN ('submitted', 'checking')`,
    [submissionId, JSON.stringify([finding]), now],
  );
  if (rowCount > 0)
    await tx.query(`UPDATE versions SET status = 'rejected', verdict_at = $2 WHERE submission_id = $1`, [
      submissionId,
      now,
    ]);
}
