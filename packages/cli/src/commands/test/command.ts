import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import { plural, type Style } from '../../cli/terminal.js';
import { renderFinding } from '../validate/finding.js';
import type { TestCounts } from './readVitestReport.js';
import type { TestOptions, TestReport } from './runProjectTests.js';

/** `platform test`: the project's vitest run, then a failures appendix; exits with the tests' code. */
export const testCommand = defineCommand<TestOptions, TestReport>({
  name: 'test',
  summary: 'Run the project tests (vitest) and list each failure',
  args: '[-- <vitest arguments>]',
  description: [
    "Runs the project's own vitest (`vitest run`), shows its output, then a failures appendix:",
    'each failing test, its file:line and the first line of its assertion message, and each test',
    'file that failed to run; when one did, also the definition problems of the integrations, as',
    '`platform validate` reports them. Arguments after -- go to vitest untouched. With --json,',
    'vitest prints nothing and data holds counts, failures and findings; the JSON report is also',
    'kept in .platform/test-report.json.',
  ],
  options: {
    raw: { type: 'boolean', description: "Only vitest's own output: no failures appendix" },
  },
  examples: ['platform test', 'platform test --raw', 'platform test --json -- src/acme-notes'],
  exitCodes: ["1 (or vitest's own code) a test or a test file failed, or vitest could not run"],
  parse(commandLine, context) {
    if (commandLine.positionals.length > 0) {
      throw new CliError('usage', `Unexpected argument "${commandLine.positionals[0]}".`, {
        hint: 'Put arguments for vitest after --, for example `platform test -- src/acme-notes`.',
      });
    }
    // vitest decides on colour by itself; make it agree with ours (a TTY, and NO_COLOR honoured).
    const { FORCE_COLOR: _force, NO_COLOR: _none, ...rest } = context.env;
    return {
      cwd: context.cwd,
      env: context.color ? { ...rest, FORCE_COLOR: '1' } : { ...rest, NO_COLOR: '1' },
      raw: commandLine.values.raw === true && !context.json,
      output: context.json ? 'silent' : 'inherit',
      args: commandLine.passthrough,
    };
  },
  async run(options, context) {
    const { runProjectTests } = await import('./runProjectTests.js');
    const report = await runProjectTests(options);
    if (report.exitCode === 0) return { ok: true, data: report };
    const counts = report.counts;
    const problems = report.findings.length;
    const message =
      counts === null
        ? `The tests failed (vitest exit code ${report.exitCode}).`
        : `${failureSummary(counts, report.exitCode)}${problems > 0 ? ` The integration definitions have ${plural(problems, 'problem')}.` : ''}`;
    const where = context.json
      ? problems > 0
        ? 'in data.findings and data.failures'
        : 'in data.failures'
      : options.raw
        ? 'in the output above'
        : 'in the appendix above';
    return {
      ok: false,
      data: report,
      error: new CliError('tests_failed', message, {
        hint: `Fix the ${problems > 0 ? 'definition problems and failures' : 'failing tests'} listed ${where}, then run \`platform test\` again.`,
        exitCode: report.exitCode,
      }),
    };
  },
  render: renderAppendix,
});

/**
 * Failing tests and failed test files, each one failure.
 * @example failureSummary({ total: 0, failed: 0, failedFiles: 1, ... }, 1) // '1 failure: 1 test file failed to run.'
 */
function failureSummary(counts: TestCounts, exitCode: number): string {
  const failures = counts.failed + counts.failedFiles;
  if (failures === 0) {
    const ran = counts.total === 0 ? 'no test ran' : `none of ${plural(counts.total, 'test')} failed`;
    return `vitest ended with exit code ${exitCode} though ${ran}; its output above says why.`;
  }
  const parts: string[] = [];
  if (counts.failed > 0) parts.push(`${counts.failed} of ${plural(counts.total, 'test')} failed`);
  if (counts.failedFiles > 0) parts.push(`${plural(counts.failedFiles, 'test file')} failed to run`);
  return `${plural(failures, 'failure')}: ${parts.join(', and ')}.`;
}

function renderAppendix(report: TestReport, style: Style): string {
  if (report.counts === null || report.failures.length === 0) return '';
  const lines = ['', style.bold(`Failures appendix (${report.failures.length})`)];
  report.failures.forEach((failure, index) => {
    const where = failure.line === null ? failure.file : `${failure.file}:${failure.line}`;
    lines.push(
      `  ${index + 1}. ${style.red(failure.name)}`,
      `     ${style.cyan(where)}`,
      `     ${failure.message}`,
    );
  });
  if (report.findings.length > 0) {
    lines.push(
      '',
      style.bold(`Definition problems (${report.findings.length}), as \`platform validate\` reports them`),
    );
    for (const item of report.findings) lines.push(...renderFinding(item, style), '');
    lines.pop();
  }
  return `${lines.join('\n')}\n`;
}
