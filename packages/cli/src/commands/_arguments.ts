import { CliError } from '../cli/CliError.js';
import type { OptionSpec, ParsedCommandLine } from '../cli/defineCommand.js';

/** Refuses positional arguments for a command that takes none. */
export function noPositionals(command: string, commandLine: ParsedCommandLine): void {
  if (commandLine.positionals.length === 0 && commandLine.passthrough.length === 0) return;
  const extra = [...commandLine.positionals, ...commandLine.passthrough].join(' ');
  throw new CliError('usage', `platform ${command} takes no arguments (got "${extra}").`, {
    hint: `Pass the project directory with --cwd <dir>; run \`platform ${command} --help\` for the options.`,
  });
}

/** The `--host <url>` option of every command that talks to a host. */
export const HOST_OPTION: OptionSpec = {
  type: 'string',
  value: '<url>',
  description: 'The host (default: the current host)',
};

/** `{ host }` when `--host` was given: spread into a command's options. */
export function hostOption(commandLine: ParsedCommandLine): { host?: string } {
  const { host } = commandLine.values;
  return typeof host === 'string' ? { host } : {};
}
