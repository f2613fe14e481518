import { registerCommandLineRunner, runThroughServe } from './_adminChannel.js';
import { dataOptionsFrom } from './_openHost.js';
import { adminCommands } from './adminCommands.js';
import { adminVersionCommands } from './adminVersions.js';
import { CliError, toCliError } from './CliError.js';
import type { CliIo, Command } from './Command.js';
import { EXIT_CODES, type ExitCode } from './exitCodes.js';
import { installCommand } from './install.js';
import { migrateCommand } from './migrate.js';
import { parseCommandArgs } from './parseArgs.js';
import type { RunningServer } from './serve.js';
import { serveCommand } from './serveCommand.js';

export const COMMANDS: readonly Command[] = [
  serveCommand,
  migrateCommand,
  installCommand,
  ...adminCommands,
  ...adminVersionCommands,
];

/** What the bin does with a command line: print `stdout`/`stderr` and exit, or keep a server running. */
export type CliOutcome =
  | { readonly kind: 'exit'; readonly exitCode: ExitCode; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'serve'; readonly server: RunningServer; readonly stdout: string };

const ENVIRONMENT = [
  'Environment:',
  '  DATABASE_URL         PostgreSQL connection string (default: embedded PGlite in --data)',
  '  PLATFORM_SECRET_KEY  32 bytes, base64 or hex, encrypting secrets at rest (default: generated into --data)',
  '  LOG_LEVEL            serve log level (default info); logs are JSON lines on stdout',
].join('\n');

const WHILE_SERVING = [
  'While `platform-host serve` runs on the same PGlite --data folder, these commands run inside it',
  'through its admin channel (DIR/admin.sock, mode 0600): same output, --json and exit codes.',
].join('\n');

/** Reads standard input once, however often it is asked for (the admin channel may read it first). */
function stdinOnce(io: CliIo): CliIo {
  let read: Promise<string> | undefined;
  return {
    ...io,
    readStdin: () => {
      read ??= io.readStdin();
      return read;
    },
  };
}

function groupHelp(words: readonly string[]): string {
  const listed = COMMANDS.filter((command) => words.every((word, index) => command.path[index] === word));
  const width = Math.max(...listed.map((command) => command.path.join(' ').length));
  return [
    `Usage: platform-host ${words.length === 0 ? '<command>' : `${words.join(' ')} <command>`} [options]`,
    '',
    'Commands:',
    ...listed.map((command) => `  ${command.path.join(' ').padEnd(width)}  ${command.summary}`),
    '',
    ...(words.length === 0 ? [ENVIRONMENT, ''] : []),
    ...(words[0] === 'admin' ? [WHILE_SERVING, ''] : []),
    `Run \`platform-host <command> --help\` for a command's options.`,
  ].join('\n');
}

/** The longest command whose words start `argv`, or the words of a group (`admin`, `admin user`). */
function match(
  argv: readonly string[],
): { command: Command; rest: readonly string[] } | { group: readonly string[] } {
  const words: string[] = [];
  for (const word of argv) {
    if (word.startsWith('-')) break;
    words.push(word);
  }
  for (let length = words.length; length > 0; length--) {
    const command = COMMANDS.find(
      (candidate) =>
        candidate.path.length === length && candidate.path.every((word, index) => words[index] === word),
    );
    if (command !== undefined) return { command, rest: argv.slice(length) };
  }
  const group: string[] = [];
  for (const word of words) {
    if (!COMMANDS.some((command) => [...group, word].every((part, index) => command.path[index] === part)))
      break;
    group.push(word);
  }
  return { group };
}

function failure(error: CliError, json: boolean): CliOutcome {
  const { code, message, hint } = error;
  return json
    ? {
        kind: 'exit',
        exitCode: error.exitCode,
        stdout: `${JSON.stringify({ ok: false, error: { code, message, hint } })}\n`,
        stderr: '',
      }
    : { kind: 'exit', exitCode: error.exitCode, stdout: '', stderr: `error: ${message}\nhint: ${hint}\n` };
}

/**
 * Runs one `platform-host` command line and says what to print; it prints nothing itself. With
 * `--json`, stdout is exactly one `{ ok, data }` or `{ ok: false, error: { code, message, hint } }`.
 * @example const outcome = await runCli(['admin', 'account', 'create', '--slug', 'acme', '--name', 'Acme', '--json'], io);
 */
export async function runCli(argv: readonly string[], cliIo: CliIo): Promise<CliOutcome> {
  const io = stdinOnce(cliIo);
  const found = match(argv);
  const wantsJson = argv.includes('--json');
  if (!('command' in found)) {
    const help = groupHelp(found.group);
    if (argv.length === 0)
      return { kind: 'exit', exitCode: EXIT_CODES.usage, stdout: '', stderr: `${help}\n` };
    if (argv.includes('--help') || argv.includes('-h')) {
      return { kind: 'exit', exitCode: EXIT_CODES.ok, stdout: `${help}\n`, stderr: '' };
    }
    const next = argv[found.group.length];
    const problem =
      next === undefined || next.startsWith('-')
        ? `Missing a command after \`platform-host ${found.group.join(' ')}\`.`
        : `Unknown command "${[...found.group, next].join(' ')}".`;
    const where = found.group.length === 0 ? '' : ` ${found.group.join(' ')}`;
    return failure(
      new CliError('usage', problem, `Run \`platform-host${where} --help\` to list the commands.`),
      wantsJson,
    );
  }
  const { command, rest } = found;
  const json = command.json && wantsJson;
  try {
    const args = parseCommandArgs(command, rest);
    if (args.values.help === true) {
      return {
        kind: 'exit',
        exitCode: EXIT_CODES.ok,
        stdout: `${command.summary}.\n\nUsage: ${command.help}\n`,
        stderr: '',
      };
    }
    if (io.host !== undefined && command.throughServe !== true) {
      throw new CliError(
        'refused',
        `\`platform-host ${command.path.join(' ')}\` does not run through serve's admin channel.`,
        'Run it directly (stop serve first if it needs the data folder).',
      );
    }
    if (io.host === undefined && command.throughServe === true) {
      // A `serve` holding this PGlite folder runs the command itself, through its admin channel.
      const { dataDir, databaseUrl } = dataOptionsFrom(args, io);
      const served = databaseUrl ? undefined : await runThroughServe(dataDir, argv, args.values, io);
      if (served !== undefined) return { kind: 'exit', ...served };
    }
    const result = await command.run(args, io);
    if (command === serveCommand)
      return { kind: 'serve', server: result.data as RunningServer, stdout: `${result.text}\n` };
    const stdout = json ? JSON.stringify({ ok: true, data: result.data }) : result.text;
    return { kind: 'exit', exitCode: EXIT_CODES.ok, stdout: `${stdout}\n`, stderr: '' };
  } catch (error) {
    return failure(toCliError(error), json);
  }
}

// Commands sent to a running serve through its admin channel run here too.
registerCommandLineRunner(runCli);
