/** Ends the process with `exitCode`: thrown by `runMain`, caught only by the bin entry, which exits. */
export class ExitError extends Error {
  override readonly name = 'ExitError';
  readonly exitCode: number;

  constructor(exitCode: number) {
    super(`exit ${exitCode}`);
    this.exitCode = exitCode;
  }
}
