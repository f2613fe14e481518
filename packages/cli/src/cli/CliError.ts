import { type CliErrorCode, ERROR_EXIT_CODES } from './exitCodes.js';

/** What every CLI failure carries besides its code and message. */
export interface CliErrorOptions {
  /** An imperative sentence: what to do next. */
  readonly hint: string;
  readonly cause?: unknown;
  /** Overrides the code's exit code (`test` exits with the test runner's own code). */
  readonly exitCode?: number;
}

/** The wire shape of a CLI failure: `error` in `{ ok: false, error }`. */
export interface CliErrorBody {
  readonly code: CliErrorCode;
  readonly message: string;
  readonly hint: string;
}

/**
 * A failure of a command, with a stable code, a message saying what is wrong and a hint saying
 * what to do.
 * @example throw new CliError('project_not_found', 'No platform.json in /tmp/x.', { hint: 'Run platform init.' });
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code: CliErrorCode;
  readonly hint: string;
  readonly exitCode: number;

  constructor(code: CliErrorCode, message: string, options: CliErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? ERROR_EXIT_CODES[code];
  }

  /** The `error` member of the JSON envelope. */
  toJSON(): CliErrorBody {
    return { code: this.code, message: this.message, hint: this.hint };
  }
}

/** Any thrown value as a {@link CliError}: CLI errors pass through, anything else is `internal`. */
export function toCliError(thrown: unknown): CliError {
  if (thrown instanceof CliError) return thrown;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new CliError('internal', `Unexpected failure: ${message}`, {
    hint: 'Run the command again with PLATFORM_DEBUG=1 to print the stack, and report it with the command you ran.',
    cause: thrown,
  });
}
