import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { HOST_OPTION, hostOption } from '../_arguments.js';
import type { UseOptions, UseReport } from './selectSource.js';

/** `platform use <source-slug> [--host <url>]`. */
export const useCommand = defineCommand<UseOptions, UseReport>({
  name: 'use',
  summary: 'Select the source publish and status act on',
  args: '<source-slug>',
  description: [
    'Checks that you hold a seat on the source (see `platform sources`) and remembers it for the',
    'current host (or --host). `platform publish` and `platform status` then target it unless',
    '--source says otherwise; without a selection they fall back to platform.json\'s "source".',
  ],
  options: {
    host: HOST_OPTION,
  },
  examples: ['platform use acme-dev'],
  exitCodes: [
    '1 the host cannot be reached',
    '4 not signed in, session expired or revoked, or MFA pending',
    '5 you hold no seat on that source',
  ],
  parse(commandLine, context) {
    const [slug, ...extra] = commandLine.positionals;
    if (slug === undefined || extra.length > 0 || commandLine.passthrough.length > 0) {
      throw new CliError('usage', 'platform use takes one source slug.', {
        hint: 'Run `platform use <source-slug>`; `platform sources` lists yours.',
      });
    }
    return { env: context.env, slug, ...hostOption(commandLine) };
  },
  async run(options) {
    const { selectSource } = await import('./selectSource.js');
    return { ok: true, data: await selectSource(options) };
  },
  render: (report: UseReport, style: Style) =>
    `Using ${style.bold(report.source.slug)} (${report.source.stage}, ${report.source.role}) on ${report.host}.\n`,
});
