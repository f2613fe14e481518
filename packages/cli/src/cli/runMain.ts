import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI_VERSION } from '../version.js';
import { CliError, toCliError } from './CliError.js';
import type { Command, CommandContext, ParsedCommandLine } from './defineCommand.js';
import { ExitError } from './ExitError.js';
import { type CommandResult, toEnvelope } from './envelope.js';
import { commandHelp, GLOBAL_OPTIONS, rootHelp } from './help.js';
import { createProgress, silentProgress } from './progress.js';
import { createStyle, shouldUseColor } from './terminal.js';

/** A writable stream as far as `runMain` needs one. */
export interface OutputStream {
  readonly isTTY?: boolean | undefined;
  write(text: string, callback?: (error?: Error | null) => void): unknown;
}

/** The process around `runMain`: the bin entry passes the real one. */
export interface MainIO {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

type AnyCommand = Command<any, any>;

/**
 * Runs one command line: parses it, runs the command, prints its result (JSON envelope or human
 * text) and, when it failed, throws an {@link ExitError} with its exit code. This and the bin entry
 * are the only places that print.
 */
export async function runMain(
  argv: readonly string[],
  io: MainIO,
  commands: readonly AnyCommand[],
): Promise<void> {
  const [name, ...rest] = argv;
  // `--json` counts only before `--`: what follows belongs to another tool (vitest).
  const separator = rest.indexOf('--');
  const json = (separator === -1 ? rest : rest.slice(0, separator)).includes('--json') || name === '--json';
  const color = shouldUseColor(io.stdout, io.env) && !json;
  const style = createStyle(color);
  const errorStyle = createStyle(shouldUseColor(io.stderr, io.env));

  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? commands.find((command) => command.name === rest[0]) : undefined;
    await write(io.stdout, topic === undefined ? rootHelp(commands, style) : commandHelp(topic, style));
    return;
  }
  if (name === '--version' || name === '-v') {
    await write(
      io.stdout,
      json ? `${JSON.stringify({ ok: true, data: { version: CLI_VERSION } })}\n` : `${CLI_VERSION}\n`,
    );
    return;
  }

  const command = commands.find((candidate) => candidate.name === name);
  let result: CommandResult<unknown>;
  if (command === undefined) {
    result = {
      ok: false,
      error: new CliError('usage', `Unknown command "${name}".`, {
        hint: `Run \`platform --help\` to see the commands (${commands.map((c) => c.name).join(', ')}).`,
      }),
    };
  } else {
    const parsed = parseCommandLine(command, rest);
    if (!parsed.ok) {
      result = parsed;
    } else if (parsed.data.values.help === true) {
      const help = commandHelp(command, style);
      await write(io.stdout, json ? `${JSON.stringify({ ok: true, data: { help } })}\n` : help);
      return;
    } else {
      const cwd = typeof parsed.data.values.cwd === 'string' ? parsed.data.values.cwd : io.cwd;
      const context: CommandContext = {
        cwd: resolve(io.cwd, cwd),
        env: io.env,
        json,
        color,
        progress: json ? silentProgress : createProgress(io.stderr),
      };
      result = await runCommand(command, parsed.data, context);
    }
  }

  if (json) {
    await write(io.stdout, `${JSON.stringify(toEnvelope(result))}\n`);
  } else {
    if (command !== undefined && result.data !== undefined) {
      const text = command.render(result.data, style);
      if (text !== '') await write(io.stdout, text.endsWith('\n') ? text : `${text}\n`);
    }
    if (!result.ok) await write(io.stderr, formatError(result.error, errorStyle, io.env));
  }
  if (!result.ok) throw new ExitError(result.error.exitCode);
  if (result.running !== undefined) {
    // The ready result is printed; whatever ends the run later goes to stderr, so that stdout
    // still holds exactly one JSON value with --json.
    try {
      await result.running;
    } catch (thrown) {
      const error = toCliError(thrown);
      await write(io.stderr, formatError(error, errorStyle, io.env));
      throw new ExitError(error.exitCode);
    }
  }
}

async function runCommand(
  command: AnyCommand,
  commandLine: ParsedCommandLine,
  context: CommandContext,
): Promise<CommandResult<unknown>> {
  try {
    return await command.run(command.parse(commandLine, context), context);
  } catch (thrown) {
    return { ok: false, error: toCliError(thrown) };
  }
}

function parseCommandLine(
  command: AnyCommand,
  args: readonly string[],
): { ok: true; data: ParsedCommandLine } | { ok: false; error: CliError } {
  const separator = args.indexOf('--');
  const own = separator === -1 ? args : args.slice(0, separator);
  const passthrough = separator === -1 ? [] : args.slice(separator + 1);
  const options = Object.fromEntries(
    Object.entries({ ...command.options, ...GLOBAL_OPTIONS }).map(([key, spec]) => [
      key,
      {
        type: spec.type,
        ...('multiple' in spec && spec.multiple === true ? { multiple: true } : {}),
        ...('short' in spec && spec.short !== undefined ? { short: spec.short } : {}),
      },
    ]),
  );
  try {
    const { values, positionals } = parseArgs({
      args: [...own],
      options,
      allowPositionals: true,
      strict: true,
    });
    return { ok: true, data: { values, positionals, passthrough } };
  } catch (error) {
    return {
      ok: false,
      error: new CliError('usage', (error as Error).message, {
        hint: `Run \`platform ${command.name} --help\` to see its options.`,
      }),
    };
  }
}

function formatError(
  error: CliError,
  style: ReturnType<typeof createStyle>,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const lines = [`${style.red(style.bold('Error'))} ${style.dim(`[${error.code}]`)} ${error.message}`];
  lines.push(`${style.cyan('Hint:')} ${error.hint}`);
  if (error.code === 'internal' && env.PLATFORM_DEBUG === '1' && error.cause instanceof Error) {
    lines.push(error.cause.stack ?? String(error.cause));
  }
  return `${lines.join('\n')}\n`;
}

function write(stream: OutputStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
