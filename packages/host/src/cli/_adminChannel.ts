import { chmod, lstat, mkdtemp, rename, rm, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { isAbsolute, join } from 'node:path';
import type { Logger } from 'pino';
import type { Host } from '../createHost.js';
import { liveLockHolder } from './_dataDirLock.js';
import { CliError } from './CliError.js';
import type { CliIo } from './Command.js';
import { EXIT_CODES, type ExitCode } from './exitCodes.js';

// The admin channel: how `platform-host admin ...` and `install` reach a `serve` that holds a PGlite
// data folder (PGlite is one process's database). A Unix domain socket in the data folder, mode
// 0600, no network listener. One connection carries one command:
//   request:  one JSON line  {"argv":["admin","user","create",...],"cwd":"/abs/dir","stdin":"..."}
//   response: one JSON line  {"exitCode":0,"stdout":"...","stderr":"..."}
// `serve` runs the argv through `runCli` against its own open host (`CliIo.host`), so the command,
// its text, its `--json` envelope and its exit code are the one-shot command's own.

export const ADMIN_SOCKET = 'admin.sock';
const MAX_REQUEST_BYTES = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;
// sockaddr_un.sun_path: 108 bytes on Linux, 104 on macOS, with the terminating NUL.
const MAX_SOCKET_PATH_BYTES = 103;

export interface AdminRequest {
  readonly argv: readonly string[];
  /** The caller's working directory: relative paths (`install <projectDir>`, `--data`) resolve there. */
  readonly cwd: string;
  /** Standard input, sent only when the command reads it (`--password-stdin`, `--value-stdin`). */
  readonly stdin?: string | undefined;
}

export interface AdminResponse {
  readonly exitCode: ExitCode;
  readonly stdout: string;
  readonly stderr: string;
}

export const adminSocketPath = (dataDir: string) => join(dataDir, ADMIN_SOCKET);

/** Runs one command line and says what to print: `runCli`'s contract, as the channel needs it. */
export type CommandLineRunner = (
  argv: readonly string[],
  io: CliIo,
) => Promise<({ readonly kind: 'exit' } & AdminResponse) | { readonly kind: 'serve' }>;

// The command table runs through this channel, and serve (one of its commands) opens it: the table
// registers its runner here when it loads (runCli.ts), so the channel never imports its caller.
let commandLineRunner: CommandLineRunner | undefined;

/** Called once by runCli.ts: the runner of the commands that come through the channel. */
export function registerCommandLineRunner(runner: CommandLineRunner): void {
  commandLineRunner = runner;
}

// One line of the protocol as a JSON object, or undefined for anything else.
function jsonObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parseRequest(line: string): AdminRequest | undefined {
  const value = jsonObject(line);
  if (value === undefined) return undefined;
  const { argv, cwd, stdin } = value;
  if (!Array.isArray(argv) || !argv.every((word) => typeof word === 'string')) return undefined;
  if (typeof cwd !== 'string' || !isAbsolute(cwd)) return undefined;
  if (stdin !== undefined && typeof stdin !== 'string') return undefined;
  return { argv, cwd, stdin };
}

function parseResponse(line: string): AdminResponse | undefined {
  const value = jsonObject(line);
  if (value === undefined) return undefined;
  const { exitCode, stdout, stderr } = value;
  if (!(Object.values(EXIT_CODES) as unknown[]).includes(exitCode)) return undefined;
  if (typeof stdout !== 'string' || typeof stderr !== 'string') return undefined;
  return { exitCode: exitCode as ExitCode, stdout, stderr };
}

/** Reads one newline-terminated line (at most `limit` bytes), or rejects. */
function readLine(socket: Socket, limit: number): Promise<string> {
  return new Promise((resolveLine, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (error !== undefined) reject(error);
      else {
        const text = Buffer.concat(chunks).toString('utf8');
        resolveLine(text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n')));
      }
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (chunk.includes(10)) done();
      else if (size > limit) done(new Error(`more than ${limit} bytes without a newline`));
    };
    const onEnd = () => done(size === 0 ? new Error('closed without a line') : undefined);
    const onError = (error: Error) => done(error);
    // Destroyed (the request timeout) without an end or an error.
    const onClose = () => done(new Error('closed without a line'));
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('error', onError);
    socket.once('close', onClose);
  });
}

export interface AdminChannel {
  readonly path: string;
  /** Stops accepting, lets commands in flight finish for up to `timeoutMs`, removes the socket. */
  close(timeoutMs: number): Promise<void>;
}

/**
 * Opens `<dataDir>/admin.sock` for a running `serve` (PGlite only; the caller holds the data
 * folder's lock, so a socket already there is a stale one from a serve that died, and is
 * replaced). The socket is bound in a fresh 0700 folder, narrowed to 0600 and only then moved into
 * place, so it is never reachable with wider permissions. Undefined when the path is too long for
 * a Unix socket (the admin commands then report the folder busy, as without a channel).
 * @example const channel = await openAdminChannel({ dataDir, host, logger }); ...; await channel?.close(10_000);
 */
export async function openAdminChannel(options: {
  readonly dataDir: string;
  readonly host: Host;
  readonly logger: Logger;
}): Promise<AdminChannel | undefined> {
  const { dataDir, host, logger } = options;
  const path = adminSocketPath(dataDir);
  // The binding folder's name is 13 bytes past the data folder, its socket 15; `admin.sock` 11.
  if (Buffer.byteLength(join(dataDir, '.admin-XXXXXX', 's')) > MAX_SOCKET_PATH_BYTES) {
    logger.warn(
      { path },
      'admin channel not opened: the data folder path is too long for a Unix socket; admin commands need serve stopped',
    );
    return undefined;
  }
  const inFlight = new Set<Promise<void>>();
  const sockets = new Set<Socket>();

  async function answer(socket: Socket): Promise<void> {
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    let line: string;
    try {
      line = await readLine(socket, MAX_REQUEST_BYTES);
    } catch {
      socket.destroy();
      return;
    }
    socket.setTimeout(0);
    const request = parseRequest(line);
    let response: AdminResponse;
    if (request === undefined) {
      response = {
        exitCode: EXIT_CODES.usage,
        stdout: '',
        stderr: `error: Not an admin channel request.\nhint: Send one JSON line {"argv": [...], "cwd": "/absolute/dir"}; platform-host does this for you.\n`,
      };
    } else {
      // The command's words, up to its first option: no option value (a password) reaches the log.
      const firstOption = request.argv.findIndex((word) => word.startsWith('-'));
      const words = request.argv.slice(0, firstOption === -1 ? 3 : Math.min(firstOption, 3));
      const runCli = commandLineRunner;
      if (runCli === undefined)
        throw new Error('the admin channel has no command runner (runCli.ts was not loaded)');
      const outcome = await runCli(request.argv, {
        cwd: request.cwd,
        // The running host's own settings apply (its database, its secret key), not the caller's.
        env: {},
        readStdin: async () => request.stdin ?? '',
        logger: logger.child({ adminCommand: words.join(' ') }),
        host,
      });
      response =
        outcome.kind === 'exit'
          ? { exitCode: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr }
          : { exitCode: EXIT_CODES.failed, stdout: '', stderr: 'error: Not through the admin channel.\n' };
      // Who asked for what, never the values (passwords and secrets travel in argv or stdin).
      logger.info({ command: words.join(' '), exitCode: response.exitCode }, 'admin command');
    }
    await new Promise<void>((resolveWrite) => socket.end(`${JSON.stringify(response)}\n`, resolveWrite));
  }

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const running = answer(socket).catch((error: unknown) => {
      logger.error({ err: error }, 'admin channel request failed');
      socket.destroy();
    });
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
  });

  const bindDir = await mkdtemp(join(dataDir, '.admin-'));
  try {
    const bound = join(bindDir, 's');
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(bound, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
    await chmod(bound, 0o600);
    const stale = await lstat(path).then(
      (stats) => stats.isSocket(),
      () => false,
    );
    if (stale) logger.info({ path }, 'replacing the admin socket left by a serve that did not shut down');
    // Atomic: a stale socket is replaced in the same step.
    await rename(bound, path);
  } catch (error) {
    await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    throw new CliError(
      'refused',
      `Could not open the admin channel ${path}: ${(error as Error).message}.`,
      `Remove ${path} if it is not a socket left by platform-host, then start serve again.`,
      { cause: error },
    );
  } finally {
    await rm(bindDir, { recursive: true, force: true });
  }

  let closing: Promise<void> | undefined;
  return {
    path,
    close(timeoutMs) {
      closing ??= (async () => {
        server.close();
        // Only ours: the lock keeps any other serve away from this folder.
        await unlink(path).catch(() => {});
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...inFlight]),
          new Promise((resolveTimeout) => {
            timer = setTimeout(resolveTimeout, timeoutMs);
          }),
        ]);
        clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
      })();
      return closing;
    },
  };
}

/** Whether `argv`'s command reads standard input (`--password-stdin`, `--value-stdin`). */
const readsStdin = (values: Readonly<Record<string, unknown>>) =>
  Object.entries(values).some(([name, value]) => name.endsWith('-stdin') && value === true);

/** Sends one request and reads the response; `connected` tells a refused connection from a broken one. */
function exchange(
  path: string,
  request: AdminRequest,
): Promise<{ connected: false; error: Error } | { connected: true; response: AdminResponse }> {
  return new Promise((resolveExchange, reject) => {
    const socket = createConnection(path);
    let connected = false;
    socket.once('error', (error) => {
      if (!connected) resolveExchange({ connected: false, error });
    });
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
      readLine(socket, Number.POSITIVE_INFINITY).then(
        (line) => {
          socket.destroy();
          const response = parseResponse(line);
          if (response === undefined) reject(new Error('serve answered something that is not a response'));
          else resolveExchange({ connected: true, response });
        },
        (error: unknown) => {
          socket.destroy();
          reject(error);
        },
      );
    });
  });
}

/**
 * Runs a command inside the `serve` that holds the PGlite folder at `dataDir`, through its admin
 * channel. Undefined when no live `serve` holds it (the caller runs the command itself, as
 * without a channel; another one-shot command holding it still makes that fail `data_dir_busy`).
 * @example const outcome = await runThroughServe(dataDir, argv, args.values, io);
 */
export async function runThroughServe(
  dataDir: string,
  argv: readonly string[],
  values: Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<AdminResponse | undefined> {
  const holder = await liveLockHolder(dataDir);
  if (holder?.command !== 'serve') return undefined;
  const path = adminSocketPath(dataDir);
  const request: AdminRequest = {
    argv,
    cwd: io.cwd,
    ...(readsStdin(values) ? { stdin: await io.readStdin() } : {}),
  };
  let result: Awaited<ReturnType<typeof exchange>>;
  try {
    result = await exchange(path, request);
  } catch (error) {
    throw new CliError(
      'internal_error',
      `\`platform-host serve\` (pid ${holder.pid}) stopped answering on ${path} before the command finished: ${(error as Error).message}.`,
      'Check whether serve is still running (its log says whether the command ran), then run the command again.',
      { cause: error },
    );
  }
  if (result.connected) return result.response;
  // Serve stopped between the look at the lock and the connection: run the command directly.
  if ((await liveLockHolder(dataDir))?.command !== 'serve') return undefined;
  throw new CliError(
    'data_dir_busy',
    `The data folder ${dataDir} is in use by \`platform-host serve\` (pid ${holder.pid}), and its admin channel ${path} does not answer (${(result.error as NodeJS.ErrnoException).code ?? result.error.message}).`,
    `Retry in a moment if serve is still starting (it opens the channel once its database is open); otherwise stop it (kill -TERM ${holder.pid}) and run the command again.`,
    { cause: result.error },
  );
}
