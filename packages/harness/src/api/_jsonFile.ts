import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// One queue per file for the whole process: two handler instances over one project directory
// (a restart inside the same process, two tabs' requests) still never interleave a read-modify-write.
const queues = new Map<string, Promise<unknown>>();

/** A JSON file read fresh on every access and rewritten atomically, its updates one at a time. */
export interface JsonFile<T> {
  readonly path: string;
  /** The parsed content, or `empty()` when the file does not exist yet. */
  read(): Promise<T>;
  /** Reads, lets `change` edit the value in place (or return a new one), then writes it atomically. */
  update<R>(change: (value: T) => R | Promise<R>): Promise<R>;
}

export interface JsonFileOptions<T> {
  readonly empty: () => T;
  /** Checks the parsed content; throws an Error saying what is wrong. Default: any JSON. */
  readonly parse?: (value: unknown) => T;
  /** File mode of a write. Default 0o600: these files hold credentials or what the vendor answered. */
  readonly mode?: number;
  /** Rendered text instead of `JSON.stringify(value, null, 2)`. */
  readonly render?: (value: T) => string;
}

/**
 * A JSON file under the project (`.platform/...`) with atomic, serialized writes.
 * @example const store = jsonFile(join(dir, '.platform/live/store.json'), { empty: () => ({}) });
 */
export function jsonFile<T>(path: string, options: JsonFileOptions<T>): JsonFile<T> {
  const read = async (): Promise<T> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return options.empty();
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // JSON.parse's message quotes the text, and these files hold secrets: say where, never what.
      throw new Error(`${path} is not valid JSON; fix the file or delete it.`);
    }
    try {
      return options.parse === undefined ? (value as T) : options.parse(value);
    } catch (error) {
      throw new Error(`${path} is not readable: ${(error as Error).message}. Fix the file or delete it.`, {
        cause: error,
      });
    }
  };
  return {
    path,
    read,
    update: (change) =>
      serialized(path, async () => {
        const value = await read();
        const changed = await change(value);
        await writeFileAtomic(path, (options.render ?? render)(value), options.mode ?? 0o600);
        return changed;
      }),
  };
}

/**
 * Runs `task` after every earlier task queued for the same key, whether they failed or not.
 * @example await serialized(path, () => rewrite(path));
 */
export function serialized<R>(key: string, task: () => Promise<R>): Promise<R> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  // The queue forgets a key once nothing is waiting on it.
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

/**
 * Writes a temporary file beside `path` with `mode`, flushes it, then renames it over `path`: a
 * reader sees the old content or the new, never half of one.
 * @example await writeFileAtomic('.platform/local-secrets.json', text, 0o600);
 */
export async function writeFileAtomic(path: string, text: string, mode: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      // The mode passed to open is reduced by the umask; the file must be exactly `mode`.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function render(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
