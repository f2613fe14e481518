/**
 * Every exit code of the `platform` command. 3, 4, 5, 9 and 10 are the spec's; 1 (a command failed
 * for another reason, such as failing tests) and 2 (the command line itself is wrong) follow Unix habit.
 */
export const EXIT_CODES = {
  ok: 0,
  failed: 1,
  usage: 2,
  validation: 3,
  auth_required: 4,
  forbidden: 5,
  precondition_failed: 9,
  gate_failed: 10,
} as const;

/** One of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** Each stable `error.code` of the JSON envelope and the exit code it ends the process with. */
export const ERROR_EXIT_CODES = {
  usage: EXIT_CODES.usage,
  validation: EXIT_CODES.validation,
  auth_required: EXIT_CODES.auth_required,
  forbidden: EXIT_CODES.forbidden,
  precondition_failed: EXIT_CODES.precondition_failed,
  gate_failed: EXIT_CODES.gate_failed,
  project_not_found: EXIT_CODES.failed,
  directory_not_empty: EXIT_CODES.failed,
  tests_failed: EXIT_CODES.failed,
  tests_unavailable: EXIT_CODES.failed,
  port_in_use: EXIT_CODES.failed,
  internal: EXIT_CODES.failed,
  // The host-facing commands (login, logout, sessions, use, sources, publish, status).
  no_source: EXIT_CODES.usage,
  no_host: EXIT_CODES.usage,
  host_unreachable: EXIT_CODES.failed,
  host_error: EXIT_CODES.failed,
  login_failed: EXIT_CODES.failed,
  source_not_found: EXIT_CODES.failed,
  version_not_found: EXIT_CODES.failed,
  lockfile_missing: EXIT_CODES.failed,
  config_invalid: EXIT_CODES.failed,
  invalid_archive: EXIT_CODES.failed,
  payload_too_large: EXIT_CODES.failed,
  slug_taken: EXIT_CODES.failed,
} as const satisfies Record<string, ExitCode>;

/** The `error.code` of a CLI failure. */
export type CliErrorCode = keyof typeof ERROR_EXIT_CODES;
