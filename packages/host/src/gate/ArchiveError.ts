/** Why an uploaded archive was refused: the one map of {@link ArchiveError} reasons. */
export const ARCHIVE_ERROR_REASONS = {
  not_gzip: 'not a gzipped file',
  not_tar: 'not a tar archive, or a damaged one',
  link: 'a link, device or other special entry',
  absolute_path: 'an absolute path',
  escapes_root: 'a path that leaves the project folder',
  local_secrets: 'local secrets',
  no_manifest: 'no platform.json',
  invalid_manifest: 'an invalid platform.json',
  no_package_json: 'no package.json',
  no_lockfile: 'no package-lock.json',
  too_large: 'over a size limit',
  too_many_files: 'over the file count limit',
} as const;

export type ArchiveErrorReason = keyof typeof ARCHIVE_ERROR_REASONS;

/**
 * An uploaded project archive the host refuses before storing it. The message names the file
 * and the fix; routes answer 400 `invalid_archive` (413 for `too_large`) with `hint` and `file`.
 * @example if (error instanceof ArchiveError) throw new RouteError(400, 'invalid_archive', error.message, { hint: error.hint, file: error.file });
 */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
  readonly code = 'invalid_archive';
  readonly reason: ArchiveErrorReason;
  /** The offending path inside the archive, relative to the project root. */
  readonly file?: string;
  /** What to do, as an imperative sentence. */
  readonly hint: string;

  constructor(
    reason: ArchiveErrorReason,
    message: string,
    options: { file?: string | undefined; hint: string; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    if (options.file !== undefined) this.file = options.file;
    this.hint = options.hint;
  }
}
