import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactText } from '@platform/sdk/runtime';
import { jobFinisher, LeaseLost, retryDelay } from '../events/jobFinisher.js';
import type { Job, JobOutcome, RetryPolicy } from '../events/jobs.js';
import { type CheckResult, GATE_CHECKS, runGate } from '../gate/index.js';
import type { HostServices, JobKindHandler } from '../HostServices.js';
import { newId } from '../store/ids.js';
import type { StoredCheck } from '../store/versions.js';
import { abandonSubmission, recordVerdict, startChecking } from './submissions.js';

/** The `gate` job kind, as createHost registers it in `services.jobKinds`. */
export const gateJobKind: JobKindHandler = { run: runGateJob, abandoned: abandonSubmission };

/**
 * Runs the gate over one submission (a `gate` job) and stores the verdict with the job's success
 * in one transaction, only while this worker still holds the job: a host killed mid-check leaves
 * the job to the next claim (its lease runs out), which checks the submission again from the start.
 */
export async function runGateJob(
  services: HostServices,
  job: Job,
  worker: string,
  retry: RetryPolicy,
): Promise<JobOutcome> {
  const started = performance.now();
  const submissionId = job.target;
  const finish = jobFinisher(services, job, worker);
  const { rows } = await services.db.query('SELECT archive, status FROM submissions WHERE id = $1', [
    submissionId,
  ]);
  const row = rows[0];
  if (row === undefined) {
    return (await finish.alone({ ok: false, error: `submission ${submissionId} no longer exists` }))
      ? 'failed'
      : 'lost';
  }
  if (row.status === 'passed' || row.status === 'rejected') {
    return (await finish.alone({ ok: true })) ? 'succeeded' : 'lost';
  }
  await startChecking(services.db, submissionId, services.now());

  const checks = new Map<string, StoredCheck>(GATE_CHECKS.map((name) => [name, { name, status: 'pending' }]));
  const stillHeld = `EXISTS (SELECT 1 FROM jobs WHERE id = $3 AND locked_by = $4 AND status = 'running')`;
  // Progress for `platform status --watch`: written as each check starts and ends.
  const onCheck = async (check: CheckResult) => {
    checks.set(check.name, toStored(check));
    await services.db.query(`UPDATE submissions SET checks = $2::jsonb WHERE id = $1 AND ${stillHeld}`, [
      submissionId,
      JSON.stringify([...checks.values()]),
      job.id,
      worker,
    ]);
  };

  const scratchRoot = services.gate.scratchDir ?? tmpdir();
  await mkdir(scratchRoot, { recursive: true });
  const workDir = await mkdtemp(join(scratchRoot, 'platform-gate-'));
  let result: Awaited<ReturnType<typeof runGate>>;
  try {
    result = await runGate({
      archive: Buffer.from(row.archive as Uint8Array),
      workDir,
      // Throws when this host serves no registry: a host problem, retried and then reported.
      platformRegistry: services.gate.registryUrl(),
      ...(services.gate.npmRegistry === undefined ? {} : { npmRegistry: services.gate.npmRegistry }),
      describe: (bundle) =>
        services.runtime.describe({ id: `gate-${newId()}`, loadBundle: async () => bundle }),
      ...(services.gate.limits === undefined ? {} : { limits: services.gate.limits }),
      onCheck,
    });
  } catch (error) {
    // The gate itself broke (not the partner's project): try again, and past the last attempt say so.
    const message = redactText((error as Error).message).slice(0, 2000);
    services.logger.error({ err: error, submissionId, jobId: job.id }, 'gate failed');
    const again = job.attempts < job.maxAttempts;
    const recorded = await services.db.transaction(async (tx) => {
      const delay = retryDelay(retry, job.attempts);
      const ok = await finish.in(tx, {
        ok: false,
        error: message,
        retryAt: again ? new Date(services.now().getTime() + delay) : undefined,
      });
      if (ok && !again) await abandonSubmission(tx, submissionId, services.now());
      return ok;
    });
    return recorded ? (again ? 'retry' : 'failed') : 'lost';
  } finally {
    await rm(workDir, { recursive: true, force: true }).catch((error) =>
      services.logger.warn({ err: error, workDir }, 'gate scratch folder left behind'),
    );
  }
  for (const check of result.checks) checks.set(check.name, toStored(check));
  try {
    await services.db.transaction(async (tx) => {
      if (!(await finish.in(tx, { ok: true }))) throw new LeaseLost();
      await recordVerdict(tx, {
        submissionId,
        checks: [...checks.values()],
        findings: result.findings,
        built: result.verdict === 'passed' ? result.integrations : undefined,
        now: services.now(),
      });
    });
  } catch (error) {
    if (error instanceof LeaseLost) return 'lost';
    throw error;
  }
  services.logger.info(
    { submissionId, verdict: result.verdict, ms: Math.round(performance.now() - started) },
    'gate verdict',
  );
  return 'succeeded';
}

const toStored = (check: CheckResult): StoredCheck => ({
  name: check.name,
  status: check.status,
  ...(check.ms === undefined ? {} : { ms: Math.round(check.ms) }),
  log: check.log,
});
