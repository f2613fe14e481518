import type { ParseArgsConfig } from 'node:util';
import type { Logger } from 'pino';
import type { Host } from '../createHost.js';

/** What a command may use from its surroundings; the bin passes the process's, tests their own. */
export interface CliIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** All of standard input (for `--value-stdin`, `--password-stdin`). */
  readonly readStdin: () => Promise<string>;
  /** Where one-shot commands log (the bin: errors to stderr). Default: silent. */
  readonly logger?: Logger;
  /**
   * A running `serve`'s open host, set when the command came through its admin channel: the
   * command uses it instead of claiming and opening the data folder.
   */
  readonly host?: Host;
}

export interface ParsedArgs {
  /** Options by name; a `multiple: true` option is a list. */
  readonly values: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
  readonly positionals: readonly string[];
}

/** What a command hands back: `data` for `--json`, `text` for people. */
export interface CommandResult<T = unknown> {
  readonly data: T;
  readonly text: string;
}

/** One `platform-host` command line: its words, help, options, and how to run it. */
export interface Command {
  /** The words that select it: `['admin', 'user', 'create']`. */
  readonly path: readonly string[];
  readonly summary: string;
  /** Usage and option lines printed by `--help` (after the summary). */
  readonly help: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments it takes (default none). */
  readonly positionals?: { readonly min: number; readonly max: number };
  /** Whether `--json` is offered. */
  readonly json: boolean;
  /**
   * Whether a running `serve` on the same PGlite folder runs it, through its admin channel
   * (`<data>/admin.sock`), instead of the command failing with `data_dir_busy`.
   */
  readonly throughServe?: boolean;
  run(args: ParsedArgs, io: CliIo): Promise<CommandResult>;
}
