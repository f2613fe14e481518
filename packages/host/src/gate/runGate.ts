import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import { CheckLog } from './_checkLog.js';
import { npmDefaults } from './_childEnv.js';
import { finding } from './_finding.js';
import { installDependencies } from './_installDependencies.js';
import { type LoadedDefinitions, loadDefinitions } from './_loadDefinitions.js';
import { runProjectTests } from './_runTests.js';
import { networkSandbox } from './_sandbox.js';
import { type TypecheckOutcome, typecheckHostRules, typecheckProject } from './_typecheck.js';
import { unpackArchive } from './_unpackArchive.js';
import { ArchiveError } from './ArchiveError.js';
import type { CheckName, CheckResult, Finding, GateResult } from './GateResult.js';
import { type ArchiveContents, type ArchiveLimits, inspectArchive } from './inspectArchive.js';

/** Time limits of the checks that run child processes, and how much of each check's log is kept. */
export interface GateLimits {
  readonly installMs?: number;
  readonly typecheckMs?: number;
  readonly testsMs?: number;
  /** The tail of each check's log that is kept. */
  readonly logBytes?: number;
}

export const DEFAULT_GATE_LIMITS = {
  installMs: 5 * 60_000,
  typecheckMs: 2 * 60_000,
  testsMs: 2 * 60_000,
  logBytes: 64 * 1024,
} as const satisfies Required<GateLimits>;

export interface GateInput {
  /** The uploaded gzipped tar of the project. */
  readonly archive: Buffer;
  /** An empty scratch folder the caller made (and removes): the project is unpacked into `<workDir>/project`. */
  readonly workDir: string;
  /** Where `@platform/*` resolve: the host's own registry, e.g. `http://127.0.0.1:8787/registry/`. */
  readonly platformRegistry: string;
  /** Every other package; default the registry npm is configured with for the host's user. */
  readonly npmRegistry?: string;
  /** Loads a bundle (in an isolate) and returns its definition's data: the host passes `runtime.describe`. */
  readonly describe: (bundle: string) => Promise<DefinitionManifest>;
  readonly limits?: GateLimits;
  readonly archiveLimits?: ArchiveLimits;
  /** Told when a check starts (`running`) and when it ends or is skipped. */
  readonly onCheck?: (check: CheckResult) => Promise<void>;
  /** Stops the running child process group; `runGate` then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

type CheckOutcome = Finding[] | { readonly passed: boolean; readonly findings: Finding[] };

/**
 * The publish gate, without database or HTTP: unpacks the archive, installs it (install scripts
 * never run), builds and loads each integration, type-checks it as the project does and under the
 * host's compiler rules, runs its tests off the network, and returns the bundles the runtime would
 * run. Every check after a failure that it needs is `skipped`; the typecheck, host-rules and test
 * checks all run whatever the others found. `rejected` when any check failed.
 * @example const result = await runGate({ archive, workDir, platformRegistry: `${origin}/registry/`, describe: (bundle) => runtime.describe({ id, loadBundle: async () => bundle }) });
 */
export async function runGate(input: GateInput): Promise<GateResult> {
  const limits = { ...DEFAULT_GATE_LIMITS, ...input.limits };
  const { workDir, signal } = input;
  const projectDir = join(workDir, 'project');
  const platformRegistry = withSlash(input.platformRegistry);
  const checks = new Map<CheckName, CheckResult>();
  const findings: Finding[] = [];
  const failed = (...names: CheckName[]) => names.filter((name) => checks.get(name)?.status === 'failed');

  async function report(result: CheckResult): Promise<void> {
    checks.set(result.name, result);
    await input.onCheck?.(result);
  }

  async function check(
    name: CheckName,
    needs: string | undefined,
    body: (log: CheckLog) => Promise<CheckOutcome>,
  ) {
    signal?.throwIfAborted();
    if (needs !== undefined) return report({ name, status: 'skipped', log: `skipped: ${needs}\n` });
    const log = new CheckLog(limits.logBytes);
    const started = performance.now();
    await report({ name, status: 'running', log: '' });
    let outcome: CheckOutcome;
    try {
      outcome = await body(log);
    } catch (error) {
      signal?.throwIfAborted();
      log.line(`the gate failed: ${(error as Error).stack ?? String(error)}`);
      outcome = [
        finding(name, 'gate.error', `the gate failed while running ${name}: ${(error as Error).message}`, {
          hint: 'Publish again; if it keeps failing, tell the host operator.',
        }),
      ];
    }
    signal?.throwIfAborted();
    const found = Array.isArray(outcome) ? outcome : outcome.findings;
    const passed = Array.isArray(outcome) ? !found.some((item) => item.severity === 'error') : outcome.passed;
    findings.push(...found);
    const ms = Math.round(performance.now() - started);
    await report({ name, status: passed ? 'passed' : 'failed', ms, log: log.text() });
  }

  let contents: ArchiveContents | undefined;
  await check('archive', undefined, async (log) => {
    try {
      contents = inspectArchive(input.archive, input.archiveLimits);
      await unpackArchive(input.archive, projectDir);
    } catch (error) {
      if (!(error instanceof ArchiveError)) throw error;
      log.line(`refused: ${error.message}`);
      return [
        finding('archive', `archive.${error.reason}`, error.message, { file: error.file, hint: error.hint }),
      ];
    }
    const slugs = contents.manifest.integrations.map((integration) => integration.slug).join(', ');
    log.line(`${contents.files.length} files; integrations: ${slugs}`);
    return [];
  });

  const installNeeds = failed('archive').length > 0 ? 'the archive was refused' : undefined;
  await check('install', installNeeds, async (log) =>
    installDependencies({
      projectDir,
      workDir,
      platformRegistry,
      npmRegistry: withSlash(input.npmRegistry ?? (await npmDefaults()).registry),
      timeoutMs: limits.installMs,
      log,
      signal,
    }),
  );

  const needsInstall = installNeeds ?? (failed('install').length > 0 ? 'install failed' : undefined);
  let loaded: LoadedDefinitions | undefined;
  const schemaLog = new CheckLog(limits.logBytes);
  await check('definition.load', needsInstall, async (log) => {
    loaded = await loadDefinitions({
      projectDir,
      manifest: contents!.manifest,
      describe: input.describe,
      loadLog: log,
      schemaLog,
    });
    return loaded.loadFindings;
  });
  const schemaNeeds = needsInstall ?? ((loaded?.checked ?? 0) === 0 ? 'no integration loaded' : undefined);
  await check('definition.schema', schemaNeeds, async (log) => {
    log.write(schemaLog.text());
    return loaded!.schemaFindings;
  });

  const sandbox = needsInstall === undefined ? await networkSandbox(workDir) : undefined;
  const run = (log: CheckLog, timeoutMs: number) => ({
    projectDir,
    workDir,
    timeoutMs,
    log,
    sandbox: sandbox!,
    signal,
  });
  let typecheck: TypecheckOutcome | undefined;
  await check('checks/typecheck', needsInstall, async (log) => {
    typecheck = await typecheckProject(run(log, limits.typecheckMs));
    return typecheck.findings;
  });
  const hostRulesNeeds =
    needsInstall ??
    (typecheck?.unavailable === undefined ? undefined : `${typecheck.unavailable} (see checks/typecheck)`);
  await check('checks/typecheck-host-rules', hostRulesNeeds, (log) =>
    typecheckHostRules(run(log, limits.typecheckMs), typecheck?.keys ?? new Set()),
  );
  await check('checks/tests', needsInstall, (log) => runProjectTests(run(log, limits.testsMs)));

  const earlier = failed(...checks.keys());
  await check('bundle', earlier.length === 0 ? undefined : `failed: ${earlier.join(', ')}`, async (log) => {
    for (const integration of loaded?.integrations ?? []) {
      const sha256 = createHash('sha256').update(integration.bundle).digest('hex');
      log.line(`${integration.slug}: ${Math.round(integration.bundle.length / 1024)} KiB, sha256 ${sha256}`);
    }
    return [];
  });

  return {
    verdict: failed(...checks.keys()).length > 0 ? 'rejected' : 'passed',
    checks: [...checks.values()],
    findings,
    integrations: loaded?.integrations ?? [],
  };
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
