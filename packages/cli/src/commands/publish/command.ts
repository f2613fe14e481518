import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import { plural, type Style } from '../../cli/terminal.js';
import { formatBytes } from '../../host/byteProgress.js';
import { processIO } from '../../host/hostIO.js';
import { HOST_OPTION, hostOption, noPositionals } from '../_arguments.js';
import { renderFinding } from '../validate/finding.js';
import type { PublishOptions, PublishReport } from './publishProject.js';

/** `platform publish [--source <slug>] [--host <url>]`. */
export const publishCommand = defineCommand<PublishOptions, PublishReport>({
  name: 'publish',
  summary: 'Pack the project and submit a version to the host gate',
  description: [
    "Refuses when the project's integration-schema is newer than this CLI's (before loading",
    'anything), then runs the checks of `platform validate`, with project.host-compiler-rules as an',
    'error: any error finding refuses. Then packs the project (no node_modules, .git, dist, coverage,',
    '.platform/, .env* files or what .gitignore ignores; package-lock.json required) and uploads it',
    'to the source: --source, else the `platform use` selection, else "source" in platform.json.',
    'Follow the gate with `platform status --watch`.',
  ],
  options: {
    source: { type: 'string', value: '<slug>', description: 'The source to publish to' },
    host: HOST_OPTION,
  },
  examples: ['platform publish', 'platform publish --source acme-dev && platform status --watch'],
  exitCodes: [
    '1 no platform.json or package-lock.json, the host cannot be reached or refused the archive',
    '4 not signed in, session expired or revoked, or MFA pending',
    '5 you hold no publisher seat on the source',
    "9 the project's @platform/integration-schema is newer than the CLI's (schema skew)",
    '10 the local checks found errors (project.host-compiler-rules included)',
  ],
  parse(commandLine, context) {
    noPositionals('publish', commandLine);
    const { source } = commandLine.values;
    const io = processIO();
    return {
      cwd: context.cwd,
      env: context.env,
      io,
      progress: context.progress,
      uploadBar: !context.json && io.stderr.isTTY === true,
      ...(typeof source === 'string' ? { source } : {}),
      ...hostOption(commandLine),
    };
  },
  async run(options, context) {
    const { publishProject } = await import('./publishProject.js');
    const report = await publishProject(options);
    if (report.summary.errors === 0) return { ok: true, data: report };
    const ids = [
      ...new Set(report.findings.filter((item) => item.severity === 'error').map((item) => item.id)),
    ];
    return {
      ok: false,
      data: report,
      error: new CliError(
        'gate_failed',
        `Not published: ${plural(report.summary.errors, 'error finding')} (${ids.join(', ')}).`,
        {
          hint: `Fix the error findings listed ${context.json ? 'in data.findings' : 'above'}, then run \`platform publish\` again.`,
        },
      ),
    };
  },
  render: renderPublish,
});

function renderPublish(report: PublishReport, style: Style): string {
  const lines = [
    `${style.bold('platform publish')} ${style.dim(`${report.project} -> ${report.source.slug} on ${report.host}`)}`,
  ];
  if (report.findings.length > 0) {
    lines.push('');
    for (const item of report.findings) lines.push(...renderFinding(item, style), '');
    const counts = `${plural(report.summary.errors, 'error')}, ${plural(report.summary.warnings, 'warning')}`;
    lines.push(report.summary.errors > 0 ? style.red(counts) : style.yellow(counts));
  }
  if (report.archive !== null) {
    lines.push(`Packed ${plural(report.archive.files, 'file')} (${formatBytes(report.archive.bytes)}).`);
    for (const item of report.archive.omitted)
      lines.push(style.yellow(`  left out ${item.path}: ${item.reason}`));
  }
  for (const version of report.versions) {
    lines.push(`${style.bold(`${version.slug} v${version.number}`)} ${version.status}`);
  }
  if (report.submission !== null) lines.push(`Next: ${style.cyan(report.next)}`);
  return `${lines.join('\n')}\n`;
}
