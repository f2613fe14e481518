import { parseArgs as nodeParseArgs } from 'node:util';
import { CliError } from './CliError.js';
import type { Command, ParsedArgs } from './Command.js';

const helpHint = (command: Command) =>
  `Run \`platform-host ${command.path.join(' ')} --help\` to see its options.`;

/**
 * A command's arguments (after its words) through `node:util` `parseArgs`, strict, with `--help`
 * and (when offered) `--json` added. Mistakes become `usage` errors that point at `--help`.
 * @example const args = parseCommandArgs(command, ['--email', 'a@b.c', '--json']);
 */
export function parseCommandArgs(command: Command, argv: readonly string[]): ParsedArgs {
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({
      args: [...argv],
      options: {
        ...command.options,
        help: { type: 'boolean', short: 'h' },
        ...(command.json ? { json: { type: 'boolean' } } : {}),
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // Node's messages run on with advice about `--`; the first sentence names the problem.
    const message = (error as Error).message.split(/\.\s/)[0]?.replace(/\.$/, '') ?? 'Invalid arguments';
    throw new CliError('usage', `${message}.`, helpHint(command), { cause: error });
  }
  const args: ParsedArgs = { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
  if (args.values.help === true) return args;
  const { min, max } = command.positionals ?? { min: 0, max: 0 };
  if (args.positionals.length < min) {
    throw new CliError('usage', `Missing an argument: ${command.help.split('\n')[0]}.`, helpHint(command));
  }
  if (args.positionals.length > max) {
    throw new CliError('usage', `Unexpected argument "${args.positionals[max]}".`, helpHint(command));
  }
  return args;
}

/** A string option that must be present and non-empty. */
export function requiredString(command: Command, args: ParsedArgs, name: string): string {
  const value = args.values[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CliError(
      'usage',
      `Missing --${name}.`,
      `Add --${name} <value> (\`platform-host ${command.path.join(' ')} --help\` lists the options).`,
    );
  }
  return value;
}

/** A string option, or undefined when absent. */
export function optionalString(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A repeatable option (`multiple: true`) of a closed set of words, each once, or `fallback` when
 * absent (`--scope publish --scope read`).
 */
export function someOf<const T extends string>(
  args: ParsedArgs,
  name: string,
  allowed: readonly T[],
  fallback: readonly T[],
): T[] {
  const value = args.values[name];
  const given =
    typeof value === 'string' ? [value] : Array.isArray(value) ? (value as readonly string[]) : [];
  if (given.length === 0) return [...fallback];
  for (const word of given) {
    if (!(allowed as readonly string[]).includes(word)) {
      throw new CliError(
        'usage',
        `--${name} must be one of ${allowed.join(', ')}; got "${word}".`,
        `Pass --${name} ${allowed[0]} (repeat --${name} for more).`,
      );
    }
  }
  return allowed.filter((word) => given.includes(word));
}

/** One of a closed set of words (`--role owner|admin|member`). */
export function oneOf<const T extends string>(
  command: Command,
  args: ParsedArgs,
  name: string,
  allowed: readonly T[],
): T {
  const value = requiredString(command, args, name);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CliError(
      'usage',
      `--${name} must be one of ${allowed.join(', ')}; got "${value}".`,
      `Pass --${name} ${allowed[0]} (or another listed value).`,
    );
  }
  return value as T;
}

/** A whole number option within bounds, or `fallback` when absent. */
export function integerOption(
  args: ParsedArgs,
  name: string,
  bounds: { min: number; max: number },
  fallback: number | undefined,
): number | undefined {
  const value = optionalString(args, name);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < bounds.min || number > bounds.max) {
    throw new CliError(
      'usage',
      `--${name} must be a whole number from ${bounds.min} to ${bounds.max}; got "${value}".`,
      `Pass --${name} ${Math.max(bounds.min, Math.min(bounds.max, 1))} or another number in range.`,
    );
  }
  return number;
}
