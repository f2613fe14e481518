import type { CheckLog } from './_checkLog.js';
import { childEnv } from './_childEnv.js';
import { finding } from './_finding.js';
import { readVitestReport } from './_readVitestReport.js';
import { runChild, seconds } from './_runChild.js';
import type { Sandbox } from './_sandbox.js';
import { hostToolchain } from './_toolchain.js';
import type { Finding } from './GateResult.js';

const MAX_FINDINGS = 50;

/**
 * `checks/tests`: `vitest run` with the host's own Vitest (the project's copy is shadowed by it),
 * off the network (`sandbox`) and within `timeoutMs` (past it the whole run is killed). The JSON
 * report comes back on a pipe the host holds (fd 3), at most `reportBytes`: nothing partner code
 * writes into a file is read as the verdict. No test files: passed, with the warning `checks/no-tests`.
 */
export async function runProjectTests(run: {
  projectDir: string;
  workDir: string;
  timeoutMs: number;
  log: CheckLog;
  sandbox: Sandbox;
  /** The most of vitest's JSON report that is read. */
  reportBytes: number;
  signal?: AbortSignal | undefined;
}): Promise<{ passed: boolean; findings: Finding[] }> {
  const { vitest } = await hostToolchain();
  const args = [
    'run',
    '--reporter=default',
    `--reporter=${run.sandbox.reporter}`,
    '--includeTaskLocation',
    '--passWithNoTests',
  ];
  run.log.line(run.sandbox.note);
  run.log.line(`vitest: the host's ${vitest.version}`);
  run.log.line(`time limit: ${seconds(run.timeoutMs)}`);
  run.log.line(`$ vitest ${args.join(' ')}`);
  const wrapped = run.sandbox.wrap(process.execPath, [vitest.cli, ...args], await childEnv(run.workDir));
  const outcome = await runChild({
    ...wrapped,
    cwd: run.projectDir,
    timeoutMs: run.timeoutMs,
    log: run.log,
    signal: run.signal,
    report: { maxBytes: run.reportBytes },
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
  if (outcome.report?.overflow === true) {
    return {
      passed: false,
      findings: [
        finding(
          'checks/tests',
          'tests.report-too-large',
          `vitest's report was larger than ${Math.round(run.reportBytes / 1024)} KiB, the gate's limit`,
          { hint: 'Make the test output smaller: fewer tests per project, or shorter failure messages.' },
        ),
      ],
    };
  }
  const report = readVitestReport(outcome.report?.bytes.toString('utf8') ?? '', run.projectDir);
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
