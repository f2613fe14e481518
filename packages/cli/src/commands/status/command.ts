import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import { plural, type Style } from '../../cli/terminal.js';
import { processIO } from '../../host/hostIO.js';
import type { HostFinding } from '../../host/hostTypes.js';
import { HOST_OPTION, hostOption, noPositionals } from '../_arguments.js';
import { checkLine } from './checkLines.js';
import type { StatusOptions, StatusReport, VersionStatusView } from './readStatus.js';

/** `platform status [--source <slug>] [--all] [--findings] [--watch] [--host <url>]`. */
export const statusCommand = defineCommand<StatusOptions, StatusReport>({
  name: 'status',
  summary: 'Show the verdict of each version; --findings, --watch, --all',
  description: [
    "Shows the latest submission's versions of the source (--all: every version), each with its",
    'status (submitted, checking, rejected, dev, gated) and its gate checks. --findings adds what',
    'the gate found. --watch polls until every version of the latest submission has a verdict,',
    'printing a line per check as it starts and ends, and fails with the findings when the gate',
    'rejects one. The source: --source, else the `platform use` selection, else platform.json.',
  ],
  options: {
    source: { type: 'string', value: '<slug>', description: 'The source (default: the selected one)' },
    all: { type: 'boolean', description: 'Every version, not only the latest submission' },
    findings: { type: 'boolean', description: 'Fetch and print the findings of each version' },
    watch: { type: 'boolean', description: 'Wait for the verdict of the latest submission' },
    host: HOST_OPTION,
  },
  examples: ['platform status', 'platform status --watch', 'platform status --all --findings --json'],
  exitCodes: [
    '1 the host cannot be reached, or the source has no versions to watch',
    '4 not signed in, session expired or revoked, or MFA pending',
    '5 you hold no seat on the source',
    '10 --watch: the gate rejected a version',
  ],
  parse(commandLine, context) {
    noPositionals('status', commandLine);
    const { source, all, findings, watch } = commandLine.values;
    return {
      cwd: context.cwd,
      env: context.env,
      all: all === true,
      findings: findings === true,
      watch: watch === true,
      // JSON mode prints only the final envelope.
      ...(context.json ? {} : { io: processIO() }),
      ...(typeof source === 'string' ? { source } : {}),
      ...hostOption(commandLine),
    };
  },
  async run(options, context) {
    if (options.watch !== true) {
      const { readStatus } = await import('./readStatus.js');
      return { ok: true, data: await readStatus(options) };
    }
    const { watchStatus } = await import('./watchStatus.js');
    const report = await watchStatus(options);
    const rejected = report.versions.filter((version) => version.status === 'rejected');
    if (rejected.length === 0) return { ok: true, data: report };
    return {
      ok: false,
      data: report,
      error: new CliError(
        'gate_failed',
        `The gate rejected ${rejected.map((version) => `${version.slug} v${version.number}`).join(', ')}.`,
        {
          hint: `Fix the findings listed ${context.json ? 'in data.versions[].findings' : 'above'}, then run \`platform publish\` again.`,
        },
      ),
    };
  },
  render: renderStatus,
});

function renderStatus(report: StatusReport, style: Style): string {
  const scope = report.scope === 'all' ? 'every version' : 'latest submission';
  const lines = [`${style.bold(report.source.slug)} on ${report.host} ${style.dim(`(${scope})`)}`];
  if (report.versions.length === 0) {
    lines.push('No versions yet. Run `platform publish` in the project.');
    return `${lines.join('\n')}\n`;
  }
  for (const version of report.versions) lines.push('', ...renderVersion(version, style));
  return `${lines.join('\n')}\n`;
}

function renderVersion(version: VersionStatusView, style: Style): string[] {
  const status =
    version.status === 'rejected'
      ? style.red(version.status)
      : version.status === 'dev' || version.status === 'gated'
        ? style.green(version.status)
        : style.yellow(version.status);
  const when = version.verdictAt === null ? `submitted ${version.createdAt}` : `verdict ${version.verdictAt}`;
  const lines = [
    `${style.bold(`${version.slug} v${version.number}`)}  ${status}${version.live ? style.green('  live') : ''}  ${style.dim(when)}`,
  ];
  if (version.status === 'gated')
    lines.push(style.dim('  Passed the gate; a platform admin reviews it before it goes live.'));
  for (const check of version.checks) lines.push(`  ${checkLine(check, style)}`);
  if (version.findings !== undefined) {
    const errors = version.findings.filter((item) => item.severity === 'error').length;
    lines.push(
      `  ${plural(version.findings.length, 'finding')}${errors > 0 ? ` (${plural(errors, 'error')})` : ''}`,
    );
    for (const item of version.findings) lines.push(...renderHostFinding(item, style));
  }
  return lines;
}

function renderHostFinding(item: HostFinding, style: Style): string[] {
  const label = item.severity === 'error' ? style.red('error  ') : style.yellow('warning');
  const lines = [`  ${label} ${style.bold(item.check)}  ${style.dim(item.code)}  ${item.message}`];
  if (item.file !== undefined) {
    lines.push(`          ${style.dim('at')} ${item.file}${item.line === undefined ? '' : `:${item.line}`}`);
  }
  if (item.hint !== undefined) lines.push(`          ${style.cyan('hint')} ${item.hint}`);
  return lines;
}
