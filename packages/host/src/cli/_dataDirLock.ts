import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from './CliError.js';

const LOCK_FILE = 'host.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims a PGlite data folder for this process. PGlite is one process's database: a second
 * process opening the same folder would corrupt it, so `serve` and the one-shot commands take
 * turns. A lock left by a process that died is taken over.
 * @example const release = await lockDataDir('.platform-host', 'serve'); ... await release();
 */
export async function lockDataDir(dataDir: string, command: string): Promise<() => Promise<void>> {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, `${JSON.stringify({ pid: process.pid, command })}\n`, { flag: 'wx' });
      return () => unlink(file).catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: { pid?: unknown; command?: unknown } = {};
    try {
      holder = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      // Unreadable or half-written: treated as stale below.
    }
    if (typeof holder.pid === 'number' && isAlive(holder.pid)) {
      throw new CliError(
        'data_dir_busy',
        `The data folder ${dataDir} is in use by \`platform-host ${String(holder.command)}\` (pid ${holder.pid}); the embedded database allows one process at a time.`,
        `Stop that process first (kill -TERM ${holder.pid}), or run the command against PostgreSQL by setting DATABASE_URL.`,
      );
    }
    await unlink(file).catch(() => {});
  }
  throw new CliError(
    'data_dir_busy',
    `Could not claim ${file}.`,
    `Delete ${file} if no platform-host process is running, then retry.`,
  );
}
