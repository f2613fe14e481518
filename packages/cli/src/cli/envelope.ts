import type { CliError, CliErrorBody } from './CliError.js';

/** What a command returns: its data, or a failure (which may still carry the data it produced, such as findings). */
export type CommandResult<T> =
  | {
      readonly ok: true;
      readonly data: T;
      /**
       * A long-running command (`dev`) resolves once it is ready: its data is printed then, and the
       * process stays until this settles (resolved: exit 0; rejected: the error on stderr, its exit code).
       */
      readonly running?: Promise<void>;
    }
  | { readonly ok: false; readonly error: CliError; readonly data?: T };

/**
 * What `--json` prints: exactly one JSON value on stdout. A failure carries `error` and, when the
 * command got far enough to produce them, the same `data` a success would (for example `data.findings`).
 */
export type Envelope<T = unknown> =
  | { readonly ok: true; readonly data: T }
  | { readonly ok: false; readonly error: CliErrorBody; readonly data?: T };

/** The envelope of a result. */
export function toEnvelope<T>(result: CommandResult<T>): Envelope<T> {
  if (result.ok) return { ok: true, data: result.data };
  return result.data === undefined
    ? { ok: false, error: result.error.toJSON() }
    : { ok: false, error: result.error.toJSON(), data: result.data };
}
