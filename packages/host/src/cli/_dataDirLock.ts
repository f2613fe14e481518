import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from './CliError.js';

const LOCK_FILE = 'host.lock';

/** The process holding a data folder, as its lock file names it. */
export interface LockHolder {
  readonly pid: number;
  /** The command's first word: `serve`, `migrate`, `install`, `admin`. */
  readonly command: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(file: string): Promise<{ pid?: unknown; command?: unknown } | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // Unreadable or half-written: treated as stale.
    return {};
  }
}

/**
 * The live process that holds the data folder, or undefined when none does (no lock, or one left
 * by a process that died).
 * @example if ((await liveLockHolder(dataDir))?.command === 'serve') ...
 */
export async function liveLockHolder(dataDir: string): Promise<LockHolder | undefined> {
  const holder = await readHolder(join(dataDir, LOCK_FILE));
  return typeof holder?.pid === 'number' && isAlive(holder.pid)
    ? { pid: holder.pid, command: String(holder.command) }
    : undefined;
}

function busy(dataDir: string, holder: LockHolder, command: string): CliError {
  if (holder.command === 'serve' && command === 'migrate') {
    return new CliError(
      'data_dir_busy',
      `The data folder ${dataDir} is in use by \`platform-host serve\` (pid ${holder.pid}), which applied the migrations when it started: there is nothing for migrate to do while it serves.`,
      `To apply the migrations of a newer platform-host, stop serve (kill -TERM ${holder.pid}) and start the new one: serve migrates at start.`,
    );
  }
  return new CliError(
    'data_dir_busy',
    `The data folder ${dataDir} is in use by \`platform-host ${holder.command}\` (pid ${holder.pid}); the embedded database allows one process at a time.`,
    `Stop that process first (kill -TERM ${holder.pid}), or run the command against PostgreSQL by setting DATABASE_URL.`,
  );
}

/**
 * Claims a PGlite data folder for this process. PGlite is one process's database: a second
 * process opening the same folder would corrupt it, so `serve` and the one-shot commands take
 * turns (admin commands and `install` reach a running `serve` through its admin channel instead,
 * `_adminChannel.ts`). A lock left by a process that died is taken over.
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
    const holder = await liveLockHolder(dataDir);
    if (holder !== undefined) throw busy(dataDir, holder, command);
    await unlink(file).catch(() => {});
  }
  throw new CliError(
    'data_dir_busy',
    `Could not claim ${file}.`,
    `Delete ${file} if no platform-host process is running, then retry.`,
  );
}
