import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckLog } from './_checkLog.js';
import { childEnv } from './_childEnv.js';
import { finding } from './_finding.js';
import { readVitestReport } from './_readVitestReport.js';
import { runChild, seconds } from './_runChild.js';
import type { Sandbox } from './_sandbox.js';
import type { Finding } from './GateResult.js';

const MAX_FINDINGS = 50;
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

/**
 * `checks/tests`: the project's own `vitest run`, off the network (`sandbox`) and within
 * `timeoutMs` (past it the whole process group is killed). No test files: passed, with the warning
 * `checks/no-tests`.
 */
export async function runProjectTests(run: {
  projectDir: string;
  workDir: string;
  timeoutMs: number;
  log: CheckLog;
  sandbox: Sandbox;
  signal?: AbortSignal | undefined;
}): Promise<{ passed: boolean; findings: Finding[] }> {
  const vitest = join(run.projectDir, 'node_modules', '.bin', 'vitest');
  if (!existsSync(vitest)) {
    if (!(await hasTestFiles(run.projectDir))) return { passed: true, findings: [noTests()] };
    return {
      passed: false,
      findings: [
        finding('checks/tests', 'tests.no-runner', 'the project has test files but vitest is not installed', {
          file: 'package.json',
          hint: 'Add vitest to devDependencies (`npm install -D vitest`), and publish again.',
        }),
      ],
    };
  }
  const reportFile = join(run.workDir, 'gate', 'vitest-report.json');
  await rm(reportFile, { force: true });
  const args = [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
    '--includeTaskLocation',
    '--passWithNoTests',
  ];
  run.log.line(run.sandbox.note);
  run.log.line(`time limit: ${seconds(run.timeoutMs)}`);
  run.log.line(`$ vitest ${args.join(' ')}`);
  const wrapped = run.sandbox.wrap(vitest, args, await childEnv(run.workDir));
  const outcome = await runChild({
    ...wrapped,
    cwd: run.projectDir,
    timeoutMs: run.timeoutMs,
    log: run.log,
    signal: run.signal,
  });
  if (outcome.timedOut) {
    run.log.line(`stopped: the tests ran past the gate's limit of ${seconds(run.timeoutMs)}`);
    return {
      passed: false,
      findings: [
        finding(
          'checks/tests',
          'tests.timeout',
          `the tests did not finish within ${seconds(run.timeoutMs)}, the gate's limit for checks/tests; the run was stopped`,
          {
            hint: `Make the whole test run finish within ${seconds(run.timeoutMs)}: look for a test waiting on a timer, the network or a promise that never settles.`,
          },
        ),
      ],
    };
  }
  const report = await readVitestReport(reportFile, run.projectDir);
  const findings: Finding[] = (report?.failures ?? []).slice(0, MAX_FINDINGS).map((failure) =>
    finding(
      'checks/tests',
      failure.name === '(file)' ? 'tests.file-failed' : 'tests.failed',
      failure.name === '(file)'
        ? `${failure.file} failed to run: ${failure.message}`
        : `${failure.name}: ${failure.message}`,
      {
        file: failure.file,
        line: failure.line,
        hint:
          failure.name === '(file)'
            ? `Make ${failure.file} load: \`npx vitest run ${failure.file}\` shows the error.`
            : `Fix the test or the code it tests; \`npx vitest run ${failure.file}\` runs it (with the network off, as here).`,
      },
    ),
  );
  if (outcome.code !== 0 && findings.length === 0) {
    findings.push(
      finding(
        'checks/tests',
        'tests.failed',
        `vitest ended with exit code ${outcome.code ?? 'none'}${report === undefined ? ' before reporting any test' : ''} (see the check log)`,
        {
          hint: 'Run `npx vitest run` in the project and fix what it reports.',
        },
      ),
    );
  }
  if (outcome.code === 0 && report !== undefined && report.total === 0 && report.failures.length === 0) {
    findings.push(noTests());
  }
  return { passed: outcome.code === 0, findings };
}

function noTests(): Finding {
  return finding('checks/tests', 'checks/no-tests', 'the project has no tests', {
    severity: 'warning',
    hint: 'Add tests next to the code (`src/<slug>/integration.test.ts`); the gate runs them with `vitest run`.',
  });
}

async function hasTestFiles(dir: string): Promise<boolean> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    if (entry.isDirectory() ? await hasTestFiles(join(dir, entry.name)) : TEST_FILE.test(entry.name))
      return true;
  }
  return false;
}
