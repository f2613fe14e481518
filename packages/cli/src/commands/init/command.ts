import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { hostOption } from '../_arguments.js';
import { DEFAULT_HOST } from './defaultHost.js';
import type { InitOptions, InitReport } from './initProject.js';

/** `platform init [directory] [--slug <slug>] [--docs <value>]... [--force]`. */
export const initCommand = defineCommand<InitOptions, InitReport>({
  name: 'init',
  summary: 'Scaffold a project (repeatable --docs <value>)',
  args: '[directory]',
  description: [
    'Writes a project into the directory (default: the current one): platform.json, an integration',
    'with a widget, an action, storage and a test, harness.config.ts with default/empty/error fixtures,',
    'a strict tsconfig.json (noUncheckedIndexedAccess), the lint preset (Biome, i18next banned), pinned',
    "dependencies, pnpm-workspace.yaml, .gitignore and .npmrc (@platform/* from the host's registry,",
    'never the public one). Installs nothing; works with npm and pnpm.',
  ],
  options: {
    slug: {
      type: 'string',
      value: '<slug>',
      description: "The integration's kebab-case slug (default: from the directory name)",
    },
    docs: {
      type: 'string',
      value: '<value>',
      multiple: true,
      description: 'A doc for platform.json: a path (created) or a URL',
    },
    force: { type: 'boolean', description: 'Write into a non-empty directory' },
    host: {
      type: 'string',
      value: '<url>',
      description: `The Platform host whose registry serves @platform/* (.npmrc; default ${DEFAULT_HOST})`,
    },
  },
  examples: [
    'platform init acme-notes',
    'platform init acme-notes --docs docs/setup.md --docs https://acme.example/help',
    'platform init acme-notes --host https://platform.example.com',
  ],
  exitCodes: ['1 the directory is not empty (pass --force)'],
  parse(commandLine, context) {
    if (commandLine.positionals.length > 1) {
      throw new CliError(
        'usage',
        `platform init takes one directory (got ${commandLine.positionals.length}).`,
        {
          hint: 'Run `platform init <directory>`; quote a path that contains spaces.',
        },
      );
    }
    const { slug, docs, force } = commandLine.values;
    return {
      cwd: context.cwd,
      directory: commandLine.positionals[0] ?? '.',
      ...(typeof slug === 'string' ? { slug } : {}),
      docs: Array.isArray(docs) ? docs.filter((doc) => typeof doc === 'string') : [],
      force: force === true,
      ...hostOption(commandLine),
      env: context.env,
    };
  },
  async run(options) {
    const { initProject } = await import('./initProject.js');
    return { ok: true, data: initProject(options) };
  },
  render: renderInit,
});

function renderInit(report: InitReport, style: Style): string {
  return `${[
    `${style.green('Created')} ${style.bold(report.slug)} in ${report.directory}`,
    ...report.files.map((file) => `  ${file}`),
    '',
    `@platform/* installs from ${style.bold(report.registry)}${report.hostDefaulted ? ' (the local host `npm start` serves; pass --host <url> for another)' : ''}`,
    '',
    'Next:',
    ...report.nextSteps.map((step) => `  ${style.cyan(step)}`),
  ].join('\n')}\n`;
}
