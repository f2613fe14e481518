import { mkdir } from 'node:fs/promises';
import { type ReadEntry, Unpack } from 'tar';
import { checkArchiveEntry } from './_archiveEntry.js';

/**
 * Unpacks an archive {@link inspectArchive} accepted into `dir`, under the same entry rule (a
 * second line of defence): regular files and folders only, owned by us, with plain modes (no
 * setuid, no ownership or times from the archive).
 */
export async function unpackArchive(archive: Buffer, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  let refused: unknown;
  await new Promise<void>((resolve, reject) => {
    const unpack = new Unpack({
      cwd: dir,
      strict: true,
      preserveOwner: false,
      noMtime: true,
      filter: (path, entry) => {
        const read = entry as ReadEntry;
        try {
          if (checkArchiveEntry(path, read.type) === undefined) return false;
        } catch (error) {
          refused ??= error;
          return false;
        }
        read.mode = read.type === 'Directory' || (read.mode ?? 0) & 0o100 ? 0o755 : 0o644;
        return true;
      },
    });
    unpack.on('error', reject);
    unpack.on('close', () => resolve());
    unpack.end(archive);
  });
  if (refused !== undefined) throw refused;
}
