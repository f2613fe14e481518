import { createHash } from 'node:crypto';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { Finding } from '@platform/wire';
import type { Queryable } from '../db/Db.js';
import { enqueueJob } from '../events/jobs.js';
import { GATE_CHECKS, type GateIntegration, reviewManifest } from '../gate/index.js';
import { newId } from '../store/ids.js';
import { makeLive, nextVersionNumber, type Source, setBrowserBundle } from '../store/integrations.js';
import type { StoredCheck } from '../store/versions.js';

// A submission's life: stored with a `submitted` version of each integration it carries and its
// gate job queued (one transaction), checking started, then the gate's verdict or, when its
// attempts ran out, its rejection. The gate job itself is `runGateJob.ts`.

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
      `UPDATE versions SET status = $2, manifest = $3::jsonb, bundle = $4, review = $5::jsonb, verdict_at = $6, listing = $7::jsonb WHERE id = $1`,
      [
        id,
        status,
        JSON.stringify(built.manifest),
        built.bundle,
        JSON.stringify(review),
        input.now,
        JSON.stringify(built.listing),
      ],
    );
    await setBrowserBundle(tx, id, built.browserBundle);
    if (status === 'dev') await makeLive(tx, { slug, versionId: id, reason: 'dev', userId });
  }
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
