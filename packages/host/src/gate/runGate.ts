import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import { gateBrowserBundle } from './_browserBundle.js';
import { CheckLog } from './_checkLog.js';
import { npmDefaults } from './_childEnv.js';
import { finding } from './_finding.js';
import { installDependencies } from './_installDependencies.js';
import { type LoadedDefinitions, loadDefinitions } from './_loadDefinitions.js';
import { seconds } from './_runChild.js';
import { runProjectTests } from './_runTests.js';
import { networkSandbox } from './_sandbox.js';
import { shadowPartnerToolchain } from './_toolchain.js';
import { type TypecheckOutcome, typecheckHostRules, typecheckProject } from './_typecheck.js';
import { unpackArchive } from './_unpackArchive.js';
import { ArchiveError } from './ArchiveError.js';
import type { CheckName, CheckResult, Finding, GateIntegration, GateResult } from './GateResult.js';
import { type ArchiveContents, type ArchiveLimits, inspectArchive } from './inspectArchive.js';
import { readProjectComponents } from './projectComponents.js';
import { readProjectListing, type StoredListing } from './projectListing.js';

/** Time limits of the checks that run child processes, and how much of each check's log is kept. */
export interface GateLimits {
  readonly installMs?: number;
  readonly typecheckMs?: number;
  readonly testsMs?: number;
  /** The tail of each check's log that is kept. */
  readonly logBytes?: number;
  /** The most of vitest's JSON report the gate reads. */
  readonly reportBytes?: number;
  /** The whole gate, every check: past it the version is `rejected` (`gate.deadline`). */
  readonly gateMs?: number;
  /** Memory of all the processes of a tsc or vitest run together (cgroup). */
  readonly memoryBytes?: number;
  /** Processes and threads of a run together (cgroup; a Node process has about a dozen threads). */
  readonly processes?: number;
  /** CPU time a run may use per second (cgroup). */
  readonly cpus?: number;
  /** The size of a run's private /tmp and of its /dev/shm. */
  readonly tmpBytes?: number;
}

export const DEFAULT_GATE_LIMITS = {
  installMs: 5 * 60_000,
  typecheckMs: 2 * 60_000,
  testsMs: 2 * 60_000,
  logBytes: 64 * 1024,
  reportBytes: 8 * 1024 * 1024,
  gateMs: 15 * 60_000,
  memoryBytes: 2 * 1024 * 1024 * 1024,
  processes: 512,
  cpus: 1,
  tmpBytes: 256 * 1024 * 1024,
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
  // The caller's signal makes runGate throw; the deadline's stops the children and rejects.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('the gate deadline passed')), limits.gateMs);
  const signal =
    input.signal === undefined ? deadline.signal : AbortSignal.any([input.signal, deadline.signal]);
  let sandbox: Awaited<ReturnType<typeof networkSandbox>> | undefined;
  try {
    return await gate(input, limits, signal, deadline.signal, (made) => {
      sandbox = made;
    });
  } finally {
    clearTimeout(timer);
    await sandbox?.close?.();
  }
}

async function gate(
  input: GateInput,
  limits: Required<GateLimits>,
  signal: AbortSignal,
  deadline: AbortSignal,
  made: (sandbox: Awaited<ReturnType<typeof networkSandbox>>) => void,
): Promise<GateResult> {
  const { workDir } = input;
  let sandbox: Awaited<ReturnType<typeof networkSandbox>> | undefined;
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
    input.signal?.throwIfAborted();
    if (deadline.aborted) needs = `the gate's deadline of ${seconds(limits.gateMs)} passed`;
    if (needs !== undefined) return report({ name, status: 'skipped', log: `skipped: ${needs}\n` });
    const log = new CheckLog(limits.logBytes);
    const started = performance.now();
    await report({ name, status: 'running', log: '' });
    let outcome: CheckOutcome;
    try {
      outcome = await body(log);
    } catch (error) {
      input.signal?.throwIfAborted();
      if (deadline.aborted) outcome = [];
      else {
        log.line(`the gate failed: ${(error as Error).stack ?? String(error)}`);
        outcome = [
          finding(name, 'gate.error', `the gate failed while running ${name}: ${(error as Error).message}`, {
            hint: 'Publish again; if it keeps failing, tell the host operator.',
          }),
        ];
      }
    }
    input.signal?.throwIfAborted();
    const found = [...(Array.isArray(outcome) ? outcome : outcome.findings), ...(await limitFindings(name))];
    let passed = Array.isArray(outcome) ? !found.some((item) => item.severity === 'error') : outcome.passed;
    if (deadline.aborted) {
      passed = false;
      log.line(`stopped: the gate's deadline of ${seconds(limits.gateMs)} passed`);
      found.push(
        finding(
          name,
          'gate.deadline',
          `the gate did not finish within ${seconds(limits.gateMs)}, its deadline for all checks together; ${name} was stopped`,
          {
            hint: 'Make the install, the type-check and the tests quicker (fewer dependencies, narrower "include", tests that do not wait).',
          },
        ),
      );
    }
    if (found.some((item) => item.code.startsWith('gate.limit.'))) passed = false;
    findings.push(...found);
    const ms = Math.round(performance.now() - started);
    await report({ name, status: passed ? 'passed' : 'failed', ms, log: log.text() });
  }

  let contents: ArchiveContents | undefined;
  const listings = new Map<string, StoredListing>();
  await check('archive', undefined, async (log) => {
    try {
      contents = await inspectArchive(input.archive, input.archiveLimits);
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
    return listingFindings(projectDir, contents, listings);
  });

  const installNeeds = failed('archive').length > 0 ? 'the archive was refused' : undefined;
  await check('install', installNeeds, async (log) => {
    const found = await installDependencies({
      projectDir,
      workDir,
      platformRegistry,
      npmRegistry: withSlash(input.npmRegistry ?? (await npmDefaults()).registry),
      timeoutMs: limits.installMs,
      log,
      signal,
    });
    if (found.length === 0) await shadowPartnerToolchain(projectDir, log);
    return found;
  });

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

  sandbox =
    needsInstall === undefined && !deadline.aborted ? await networkSandbox(workDir, limits) : undefined;
  if (sandbox !== undefined) made(sandbox);

  // The cgroup's limits a check's run reached, as findings of that check.
  async function limitFindings(name: CheckName): Promise<Finding[]> {
    const hit = await sandbox?.hit?.();
    if (hit === undefined) return [];
    const found: Finding[] = [];
    if (hit.memory) {
      found.push(
        finding(
          name,
          'gate.limit.memory',
          `${name} hit the gate's memory limit of ${Math.round(limits.memoryBytes / 1024 / 1024)} MiB; a process was killed`,
          {
            hint: 'Use less memory in the tests (smaller fixtures, no unbounded buffers).',
          },
        ),
      );
    }
    if (hit.processes) {
      found.push(
        finding(
          name,
          'gate.limit.processes',
          `${name} hit the gate's limit of ${limits.processes} processes and threads; starting more failed`,
          {
            hint: 'Start fewer processes or threads in the tests.',
          },
        ),
      );
    }
    return found;
  }
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
  await check('checks/tests', needsInstall, (log) =>
    runProjectTests({ ...run(log, limits.testsMs), reportBytes: limits.reportBytes }),
  );

  const earlier = failed(...checks.keys());
  const browserBundles = new Map<string, NonNullable<GateIntegration['browserBundle']>>();
  await check('bundle', earlier.length === 0 ? undefined : `failed: ${earlier.join(', ')}`, async (log) => {
    const found: Finding[] = [];
    for (const integration of loaded?.integrations ?? []) {
      const sha256 = createHash('sha256').update(integration.bundle).digest('hex');
      log.line(`${integration.slug}: ${Math.round(integration.bundle.length / 1024)} KiB, sha256 ${sha256}`);
      // The widgets', tile's and activation form's bundle for the web app, built as install builds it.
      const declared = contents!.manifest.integrations.find((item) => item.slug === integration.slug)!;
      const { components } = readProjectComponents(projectDir, declared.raw);
      if (
        integration.manifest.widgets.length === 0 &&
        components.tile === undefined &&
        components.activationForm === undefined
      )
        continue;
      const browser = await gateBrowserBundle({
        projectDir,
        slug: integration.slug,
        entry: declared.entry,
        components,
        log,
      });
      if (browser.bundle !== undefined) browserBundles.set(integration.slug, browser.bundle);
      found.push(...browser.findings);
    }
    return found;
  });

  return {
    verdict: failed(...checks.keys()).length > 0 ? 'rejected' : 'passed',
    checks: [...checks.values()],
    findings,
    integrations: (loaded?.integrations ?? []).map((integration) => ({
      ...integration,
      listing: listings.get(integration.slug) ?? {},
      ...(browserBundles.has(integration.slug)
        ? { browserBundle: browserBundles.get(integration.slug)! }
        : {}),
    })),
  };
}

// `archive.listing` and `archive.components`: each bad listing field and frame component path of
// platform.json, refused like the rest of the manifest.
async function listingFindings(
  projectDir: string,
  contents: ArchiveContents,
  listings: Map<string, StoredListing>,
): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const [index, integration] of contents.manifest.integrations.entries()) {
    const { listing, problems } = await readProjectListing(projectDir, integration.raw);
    const { components, problems: componentProblems } = readProjectComponents(projectDir, integration.raw);
    listings.set(integration.slug, {
      ...listing,
      ...(components.tile === undefined ? {} : { tile: true }),
      ...(components.activationForm === undefined ? {} : { activationForm: true }),
    });
    const bad = [
      ...problems.map((problem) => ({ code: 'archive.listing', problem })),
      ...componentProblems.map((problem) => ({ code: 'archive.components', problem })),
    ];
    for (const { code, problem } of bad) {
      found.push(
        finding(
          'archive',
          code,
          `platform.json integrations[${index}].${problem.field} ("${integration.slug}"): ${problem.message}`,
          { file: 'platform.json', hint: problem.hint },
        ),
      );
    }
  }
  return found;
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
