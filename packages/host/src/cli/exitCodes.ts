/** Exit codes of `platform-host`: the only place they are decided. */
export const EXIT_CODES = {
  ok: 0,
  /** The command ran and failed: unknown entity, conflict, invalid project, database error. */
  failed: 1,
  /** The command line itself is wrong: unknown command or option, missing or malformed value. */
  usage: 2,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
