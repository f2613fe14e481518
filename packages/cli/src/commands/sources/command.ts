import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { HOST_OPTION, hostOption, noPositionals } from '../_arguments.js';
import type { SourcesOptions, SourcesReport } from './listSources.js';

/** `platform sources [--host <url>]`. */
export const sourcesCommand = defineCommand<SourcesOptions, SourcesReport>({
  name: 'sources',
  summary: 'List the sources where your account holds a seat',
  description: [
    'Lists each source you hold a seat on (slug, stage, role) on the current host, or --host; the',
    'one `platform use` selected is marked with *.',
  ],
  options: {
    host: HOST_OPTION,
  },
  examples: ['platform sources', 'platform sources --json'],
  exitCodes: ['1 the host cannot be reached', '4 not signed in, session expired or revoked, or MFA pending'],
  parse(commandLine, context) {
    noPositionals('sources', commandLine);
    return { env: context.env, ...hostOption(commandLine) };
  },
  async run(options) {
    const { listSources } = await import('./listSources.js');
    return { ok: true, data: await listSources(options) };
  },
  render: renderSources,
});

function renderSources(report: SourcesReport, style: Style): string {
  const lines = [`${style.bold('Sources')} on ${report.host} ${style.dim(`(${report.user})`)}`];
  if (report.sources.length === 0) {
    lines.push('  No seats yet. Ask an owner of a source to give you one.');
    return `${lines.join('\n')}\n`;
  }
  const width = Math.max(...report.sources.map((seat) => seat.slug.length));
  const stageWidth = Math.max(...report.sources.map((seat) => seat.stage.length));
  const roleWidth = Math.max(...report.sources.map((seat) => seat.role.length));
  for (const seat of report.sources) {
    const mark = seat.selected ? style.green('*') : ' ';
    const slug = seat.selected ? style.bold(seat.slug.padEnd(width)) : seat.slug.padEnd(width);
    lines.push(
      `${mark} ${slug}  ${seat.stage.padEnd(stageWidth)}  ${seat.role.padEnd(roleWidth)}  ${style.dim(seat.name)}`,
    );
  }
  if (report.selected === null) lines.push(style.dim('Run `platform use <slug>` to select one.'));
  return `${lines.join('\n')}\n`;
}
