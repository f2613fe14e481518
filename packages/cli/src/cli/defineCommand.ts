import type { CommandResult } from './envelope.js';
import type { Progress } from './progress.js';
import type { Style } from './terminal.js';

/** One command-line option of a command. */
export interface OptionSpec {
  readonly type: 'boolean' | 'string';
  readonly multiple?: boolean;
  readonly short?: string;
  /** Placeholder shown in help for a string option, such as `<dir>`. */
  readonly value?: string;
  readonly description: string;
}

/** The command line after the command name, parsed against the command's options. */
export interface ParsedCommandLine {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
  /** Arguments after `--`, passed through untouched (for example to the test runner). */
  readonly passthrough: readonly string[];
}

/** What a command may use of its surroundings; commands never print and never exit. */
export interface CommandContext {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--json`: machine output; child processes must not write to stdout. */
  readonly json: boolean;
  /** Whether human output on stdout may be coloured (a TTY, and NO_COLOR unset). */
  readonly color: boolean;
  readonly progress: Progress;
}

/** A command: parses its options, runs to a result, renders that result for humans. */
export interface Command<O, T> {
  readonly name: string;
  /** One line, shown in `platform --help`. */
  readonly summary: string;
  /** Arguments after the command name, for the usage line (for example `[directory]`). */
  readonly args?: string;
  readonly description: readonly string[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly examples: readonly string[];
  /** Exit codes besides 0 and 2 (usage), for help. */
  readonly exitCodes: readonly string[];
  parse(commandLine: ParsedCommandLine, context: CommandContext): O;
  run(options: O, context: CommandContext): Promise<CommandResult<T>>;
  /** Human output for `data`, on success and on a failure that carries data. */
  render(data: T, style: Style): string;
}

/**
 * Declares a command; the identity, typed so that `parse`, `run` and `render` agree.
 * @example export const validateCommand = defineCommand({ name: 'validate', ... });
 */
export function defineCommand<O, T>(command: Command<O, T>): Command<O, T> {
  return command;
}
