import { ArchiveError } from './ArchiveError.js';

const REGULAR = new Set(['File', 'OldFile', 'ContiguousFile']);

const SPECIAL: Record<string, string> = {
  SymbolicLink: 'a symbolic link',
  Link: 'a hard link',
  CharacterDevice: 'a device file',
  BlockDevice: 'a device file',
  FIFO: 'a named pipe',
};

/**
 * The one rule for an archive entry, applied when the upload is inspected and again as it is
 * unpacked: its path relative to the project root (`undefined` for the root itself), or an
 * {@link ArchiveError} for a path that is absolute or climbs out, a link or device, or local secrets.
 */
export function checkArchiveEntry(rawPath: string, type: string): string | undefined {
  const shown = rawPath.replace(/^(\.\/)+/, '');
  if (/^([\\/]|[A-Za-z]:)/.test(rawPath)) {
    throw new ArchiveError('absolute_path', `the tarball carries ${rawPath}, an absolute path`, {
      file: rawPath,
      hint: 'Pack the project with paths relative to its root (`platform publish` does).',
    });
  }
  // A backslash is a separator somewhere, so it counts as one here too.
  const segments = rawPath.split(/[\\/]/);
  if (segments.includes('..')) {
    throw new ArchiveError(
      'escapes_root',
      `the tarball carries ${shown}, a path that leaves the project folder`,
      {
        file: shown,
        hint: 'Pack only files inside the project folder, with paths relative to its root (`platform publish` does).',
      },
    );
  }
  const path = segments.filter((segment) => segment !== '' && segment !== '.').join('/');
  if (path === '') return undefined;
  if (!REGULAR.has(type) && type !== 'Directory') {
    throw new ArchiveError(
      'link',
      `the tarball carries ${path}, ${SPECIAL[type] ?? `an entry of type ${type}`}: only regular files and folders are accepted`,
      {
        file: path,
        hint: `Replace ${path} with the file it stands for, or leave it out, and publish again.`,
      },
    );
  }
  const name = path.slice(path.lastIndexOf('/') + 1);
  const secrets =
    (type !== 'Directory' && name.startsWith('.env')) ||
    path === '.platform/local-secrets.json' ||
    path.endsWith('/.platform/local-secrets.json');
  if (secrets) {
    throw new ArchiveError(
      'local_secrets',
      `the tarball carries ${path}: local secrets never leave your machine; remove it (platform publish leaves it out)`,
      { file: path, hint: `Remove ${path} from the archive; \`platform publish\` leaves it out.` },
    );
  }
  return path;
}

/** Whether a tar entry type is a regular file (as opposed to a folder). */
export const isRegularFile = (type: string): boolean => REGULAR.has(type);
