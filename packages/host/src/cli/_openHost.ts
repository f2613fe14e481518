import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import { createHost, type Host } from '../createHost.js';
import { lockDataDir } from './_dataDirLock.js';
import type { CliIo, ParsedArgs } from './Command.js';

export const DEFAULT_DATA_DIR = '.platform-host';

/** Where a command finds its database and secret key. */
export interface DataOptions {
  /** PGlite data, the secret key and the demo token live here (also with PostgreSQL). */
  readonly dataDir: string;
  /** PostgreSQL instead of PGlite. */
  readonly databaseUrl?: string | undefined;
  /** Read for `PLATFORM_SECRET_KEY`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly logger?: Logger | undefined;
  /** An open host to use instead of opening the data folder (a running `serve`'s, for its admin channel). */
  readonly host?: Host | undefined;
}

export const DATA_OPTION = { data: { type: 'string' } } as const;
export const DATA_HELP = `  --data DIR          data folder (default ${DEFAULT_DATA_DIR}); DATABASE_URL selects PostgreSQL instead of PGlite`;

/** `--data` against the working directory, `DATABASE_URL` from the environment. */
export function dataOptionsFrom(args: ParsedArgs, io: CliIo): DataOptions {
  const data = args.values.data;
  return {
    dataDir: resolve(io.cwd, typeof data === 'string' ? data : DEFAULT_DATA_DIR),
    databaseUrl: io.env.DATABASE_URL || undefined,
    env: io.env,
    logger: io.logger,
    host: io.host,
  };
}

/** Claims the data folder when it holds PGlite (PostgreSQL serves many processes). */
export async function claimData(options: DataOptions, command: string): Promise<() => Promise<void>> {
  if (options.databaseUrl) return async () => {};
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  return lockDataDir(options.dataDir, command);
}

/**
 * Opens the host (migrated) for one command and closes it afterwards, whatever happens; with
 * `options.host` (a running `serve`'s), runs on that one and leaves it open.
 * @example const user = await withHost(options, 'admin', (host) => createUser(host.db, input));
 */
export async function withHost<T>(
  options: DataOptions,
  command: string,
  fn: (host: Host) => Promise<T>,
): Promise<T> {
  if (options.host !== undefined) return fn(options.host);
  const release = await claimData(options, command);
  try {
    const host = await createHost({
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      env: { ...(options.env ?? {}) },
      logger: options.logger ?? pino({ level: 'silent' }),
    });
    try {
      return await fn(host);
    } finally {
      await host.close();
    }
  } finally {
    await release();
  }
}
