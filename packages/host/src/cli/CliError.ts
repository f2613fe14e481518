import { EXIT_CODES, type ExitCode } from './exitCodes.js';

/** Stable codes of `platform-host` failures, as `--json` prints them in `error.code`. */
export type CliErrorCode =
  | 'usage'
  | 'not_found'
  | 'conflict'
  | 'refused'
  | 'invalid_project'
  | 'invalid_definition'
  | 'build_failed'
  | 'install_failed'
  | 'data_dir_busy'
  | 'internal_error';

/**
 * A failure a command reports: what went wrong (`message`) and what to do (`hint`, an imperative
 * sentence). The bin prints it and exits with `exitCode`.
 * @example throw new CliError('not_found', 'No account "acme" (by id or slug).', 'Create it with `platform-host admin account create --slug acme --name Acme`.');
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;

  constructor(
    readonly code: CliErrorCode,
    message: string,
    readonly hint: string,
    options: { exitCode?: ExitCode; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.exitCode = options.exitCode ?? (code === 'usage' ? EXIT_CODES.usage : EXIT_CODES.failed);
  }
}

/**
 * Any thrown value as a CliError. Definition errors keep their problem lines; a unique violation
 * from either database engine becomes `conflict`; anything else is `internal_error`.
 */
export function toCliError(thrown: unknown): CliError {
  if (thrown instanceof CliError) return thrown;
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  // The definition runs from its own bundle, with its own copy of the class: compare names.
  if (error.name === 'IntegrationDefinitionError') {
    return new CliError(
      'invalid_definition',
      error.message,
      'Fix each problem listed above, then run the command again.',
      {
        cause: error,
      },
    );
  }
  if ((error as { code?: unknown }).code === '23505') {
    return new CliError(
      'conflict',
      `It already exists: ${error.message}.`,
      'Use another name or slug, or keep the existing one.',
      {
        cause: error,
      },
    );
  }
  return new CliError(
    'internal_error',
    error.message,
    'Check the database settings (DATABASE_URL, --data) and run the command again; report it if it persists.',
    { cause: error },
  );
}
