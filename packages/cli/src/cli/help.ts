import { CLI_VERSION } from '../version.js';
import type { Command, OptionSpec } from './defineCommand.js';
import type { Style } from './terminal.js';

/** Options every command accepts. */
export const GLOBAL_OPTIONS = {
  cwd: { type: 'string', value: '<dir>', description: 'Project directory (default: the current directory)' },
  json: {
    type: 'boolean',
    description: 'Print one JSON envelope { ok, data | error } on stdout and nothing else',
  },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const satisfies Record<string, OptionSpec>;

function optionRows(options: Readonly<Record<string, OptionSpec>>): [string, string][] {
  return Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short === undefined ? '    ' : `-${spec.short}, `}--${name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
    return [flag, `${spec.description}${spec.multiple === true ? ' (repeatable)' : ''}`];
  });
}

function table(rows: readonly [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

/** `platform <command> --help`. */
export function commandHelp(command: Command<unknown, unknown>, style: Style): string {
  const lines = [
    `${style.bold(`platform ${command.name}`)}: ${command.summary}`,
    '',
    `Usage: platform ${command.name}${command.args === undefined ? '' : ` ${command.args}`} [options]`,
    '',
    ...command.description,
    '',
    style.bold('Options:'),
    ...table(optionRows({ ...command.options, ...GLOBAL_OPTIONS })),
    '',
    style.bold('Exit codes:'),
    ...table([
      ['0', 'success'],
      ...command.exitCodes.map((row) => splitCode(row)),
      ['2', 'the command line is wrong'],
    ]),
  ];
  if (command.examples.length > 0) {
    lines.push('', style.bold('Examples:'), ...command.examples.map((example) => `  ${example}`));
  }
  return `${lines.join('\n')}\n`;
}

function splitCode(row: string): [string, string] {
  const space = row.indexOf(' ');
  return [row.slice(0, space), row.slice(space + 1)];
}

/** `platform --help`. */
export function rootHelp(commands: readonly Command<unknown, unknown>[], style: Style): string {
  return `${[
    `${style.bold('platform')} ${CLI_VERSION}: scaffold, validate, test and publish Platform integrations`,
    '',
    'Usage: platform <command> [options]',
    '',
    style.bold('Commands:'),
    ...table(commands.map((command) => [command.name, command.summary])),
    '',
    'Every command accepts --json (one JSON envelope on stdout), --cwd <dir> and --help.',
    'Run `platform <command> --help` for its options and exit codes.',
  ].join('\n')}\n`;
}
