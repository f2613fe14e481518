import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import { plural, type Style } from '../../cli/terminal.js';
import { noPositionals } from '../_arguments.js';
import { browserBundleLine } from './checkBrowserBundle.js';
import { renderFinding } from './finding.js';
import type { ValidateOptions, ValidateReport } from './validateProject.js';

/** `platform validate`: findings of the project; exit 3 on any error finding, 9 on schema skew. */
export const validateCommand = defineCommand<ValidateOptions, ValidateReport>({
  name: 'validate',
  summary: 'Check the project; prints findings',
  description: [
    'Loads platform.json, each integration definition (TypeScript, compiled on the fly with the',
    "project's own packages), tsconfig.json and the listed docs, and prints findings",
    '{ id, severity, message, path, hint }. Warnings alone do not fail.',
  ],
  options: {},
  examples: ['platform validate', 'platform validate --cwd ./my-integration --json'],
  exitCodes: [
    '1 there is no platform.json in the project directory',
    '3 at least one error-severity finding',
    "9 the project's @platform/integration-schema is newer than the CLI's (schema skew)",
  ],
  parse(commandLine, context) {
    noPositionals('validate', commandLine);
    return { cwd: context.cwd, env: context.env };
  },
  async run(options, context) {
    // Loaded on use: the schema (and zod) cost nothing to `platform --help` or `platform init`.
    const { validateProject } = await import('./validateProject.js');
    const report = await validateProject({ ...options, progress: context.progress });
    const { errors, warnings } = report.summary;
    if (errors === 0) return { ok: true, data: report };
    const where = context.json ? 'in data.findings' : 'above';
    return {
      ok: false,
      data: report,
      error: new CliError(
        'validation',
        `${plural(errors, 'error finding')} and ${plural(warnings, 'warning')}.`,
        {
          hint: `Fix the error findings listed ${where}, then run \`platform validate\` again.`,
        },
      ),
    };
  },
  render: renderReport,
});

function renderReport(report: ValidateReport, style: Style): string {
  const names = report.integrations.map((integration) => integration.slug).join(', ');
  const lines = [
    `${style.bold('platform validate')} ${style.dim(`${report.project} (integration-schema ${report.schema.bundled})`)}`,
    `Checked ${plural(report.integrations.length, 'integration')}${names === '' ? '' : `: ${names}`}`,
  ];
  for (const integration of report.integrations) {
    if (integration.browserBundle !== null)
      lines.push(`${integration.slug}: ${browserBundleLine(integration.browserBundle.gzipBytes)}`);
  }
  lines.push('');
  for (const item of report.findings) lines.push(...renderFinding(item, style), '');
  const { errors, warnings } = report.summary;
  if (errors === 0 && warnings === 0) lines.push(style.green('No findings.'));
  else {
    const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
    lines.push(errors > 0 ? style.red(counts) : style.yellow(counts));
  }
  return `${lines.join('\n')}\n`;
}
