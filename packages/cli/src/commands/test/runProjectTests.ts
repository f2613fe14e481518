import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../../cli/CliError.js';
import { detectPackageManager, findInstalledPackage, readPackageJson } from '../../project/packageJson.js';
import { type ManifestIntegration, readManifest } from '../../project/readManifest.js';
import type { Finding } from '../validate/finding.js';
import { loadDefinitions } from '../validate/loadDefinitions.js';
import { readVitestReport, type TestCounts, type TestFailure } from './readVitestReport.js';

/** What `runProjectTests` needs. */
export interface TestOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Only the runner's own output: no JSON report, no failures appendix. */
  readonly raw: boolean;
  /** `inherit`: the runner prints to our stdout and stderr; `silent`: its output is kept for errors only. */
  readonly output: 'inherit' | 'silent';
  /** Passed to `vitest run` untouched (file filters, `-t <name>`, ...). */
  readonly args: readonly string[];
}

/** What `platform test` reports (`data` of its JSON envelope). */
export interface TestReport {
  readonly project: string;
  /** The test runner's exit code; `platform test` exits with it. */
  readonly exitCode: number;
  /** `null` with `--raw`, or when the runner ended before reporting. */
  readonly counts: TestCounts | null;
  readonly failures: readonly TestFailure[];
  /**
   * When a test file failed to run: the `definition.schema` and `definition.load` findings of the
   * project's integrations, as `platform validate` reports them (a definition that throws when
   * imported takes every test file importing it down). Empty otherwise, and with `--raw`.
   */
  readonly findings: readonly Finding[];
  /** Where the JSON report was written (kept for other tools), or `null` with `--raw`. */
  readonly reportFile: string | null;
}

/** Where vitest's JSON report goes, relative to the project (git-ignored by the scaffold). */
export const TEST_REPORT_FILE = '.platform/test-report.json';

/**
 * Runs the project's own vitest (`vitest run`) in the project and reads its JSON report into
 * counts and failures. Throws `tests_unavailable` when the project has no vitest installed.
 */
export async function runProjectTests(options: TestOptions): Promise<TestReport> {
  const projectDir = options.cwd;
  const vitest = findInstalledPackage(projectDir, 'vitest');
  const bin = vitest === undefined ? undefined : binOf(vitest.dir);
  if (vitest === undefined || bin === undefined) {
    const manager = detectPackageManager(projectDir, options.env);
    throw new CliError('tests_unavailable', `vitest is not installed in ${projectDir}.`, {
      hint: `Install the project's dependencies (\`${manager} install\`), or add vitest: \`${manager === 'pnpm' ? 'pnpm add -D' : 'npm install -D'} vitest@^4.1.12\`.`,
    });
  }

  const reportFile = options.raw ? null : join(projectDir, TEST_REPORT_FILE);
  const reporters: string[] = [];
  if (reportFile !== null) {
    mkdirSync(join(projectDir, '.platform'), { recursive: true });
    rmSync(reportFile, { force: true });
    if (options.output === 'inherit') reporters.push('--reporter=default');
    reporters.push('--reporter=json', `--outputFile.json=${reportFile}`, '--includeTaskLocation');
  }
  const { code, output } = await run(process.execPath, [bin, 'run', ...reporters, ...options.args], {
    cwd: projectDir,
    env: options.env,
    inherit: options.output === 'inherit',
  });
  const report = reportFile === null ? undefined : readVitestReport(reportFile, projectDir);
  if (reportFile !== null && report === undefined && code !== 0) {
    throw new CliError(
      'tests_failed',
      `vitest ended with exit code ${code} before reporting any test.${tail(output)}`,
      {
        hint: 'Run `platform test --raw` to see vitest’s own output, and fix what stops it from starting.',
        exitCode: code,
      },
    );
  }
  return {
    project: projectDir,
    exitCode: code,
    counts: report?.counts ?? null,
    failures: report?.failures ?? [],
    findings:
      report !== undefined && report.counts.failedFiles > 0 ? await definitionFindings(projectDir) : [],
    reportFile: report === undefined ? null : reportFile,
  };
}

/**
 * The load and schema findings of the integrations in the project's platform.json, through
 * validate's own loading; none when there is no readable manifest (tests run without one too).
 */
async function definitionFindings(projectDir: string): Promise<Finding[]> {
  let integrations: readonly ManifestIntegration[];
  try {
    integrations = readManifest(projectDir).manifest.integrations;
  } catch {
    return [];
  }
  const loaded = await loadDefinitions(projectDir, integrations);
  return loaded.flatMap((integration) => integration.findings);
}

function binOf(packageDir: string): string | undefined {
  const bin = readPackageJson(packageDir)?.bin;
  const path = typeof bin === 'string' ? bin : (bin as Record<string, string> | undefined)?.vitest;
  return path === undefined ? undefined : join(packageDir, path);
}

function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Readonly<Record<string, string | undefined>>; inherit: boolean },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: options.inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', reject);
    // A runner killed by a signal exits as a shell reports it: 128 + the signal's number.
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal === null ? 1 : 128 + constants.signals[signal]), output }),
    );
  });
}

function tail(output: string): string {
  const lines = output.trim().split('\n').slice(-5).join('\n');
  return lines === '' ? '' : ` Last output:\n${lines}`;
}
