import { describe, expect, it } from 'vitest';
import { CliError } from './CliError.js';
import { defineCommand } from './defineCommand.js';
import { ExitError } from './ExitError.js';
import { runMain } from './runMain.js';

// A command that reports what it was given, or fails the way its options say.
const echo = defineCommand<
  { fail?: string; args: readonly string[]; json: boolean },
  { args: readonly string[]; json: boolean }
>({
  name: 'echo',
  summary: 'Echo',
  description: [],
  options: { fail: { type: 'string', value: '<how>', description: 'Fail' } },
  examples: [],
  exitCodes: [],
  parse: (commandLine, context) => ({
    ...(typeof commandLine.values.fail === 'string' ? { fail: commandLine.values.fail } : {}),
    args: commandLine.passthrough,
    json: context.json,
  }),
  async run(options) {
    if (options.fail === 'gate') {
      return {
        ok: false,
        data: { args: [], json: options.json },
        error: new CliError('gate_failed', 'The gate refused it.', { hint: 'Fix the findings.' }),
      };
    }
    if (options.fail === 'throw') throw new TypeError('boom');
    if (options.fail === 'later') {
      // A long-running command: ready now, failing after its result was printed.
      const running = Promise.reject(
        new CliError('port_in_use', 'The server stopped.', { hint: 'Run it again.' }),
      );
      running.catch(() => undefined);
      return { ok: true, data: { args: options.args, json: options.json }, running };
    }
    if (options.fail === 'never') {
      return { ok: true, data: { args: options.args, json: options.json }, running: Promise.resolve() };
    }
    return { ok: true, data: { args: options.args, json: options.json } };
  },
  render: (data) => `args: ${data.args.join(' ')}`,
});

async function main(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (into: string[]) => ({
    write: (text: string, done?: (error?: Error | null) => void) => {
      into.push(text);
      done?.();
    },
  });
  let exitCode = 0;
  try {
    await runMain(argv, { stdout: stream(out), stderr: stream(err), env, cwd: '/tmp' }, [echo]);
  } catch (error) {
    if (!(error instanceof ExitError)) throw error;
    exitCode = error.exitCode;
  }
  return { exitCode, stdout: out.join(''), stderr: err.join('') };
}

describe('runMain', () => {
  it('passes arguments after -- through, and --json there does not switch to JSON', async () => {
    const result = await main(['echo', '--', '--json', '-t', 'x']);
    expect(result).toEqual({ exitCode: 0, stdout: 'args: --json -t x\n', stderr: '' });
  });

  it('prints the envelope with the data of a failure, and exits with its code', async () => {
    const result = await main(['echo', '--fail', 'gate', '--json']);
    expect(result.exitCode).toBe(10);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      error: { code: 'gate_failed', message: 'The gate refused it.', hint: 'Fix the findings.' },
      data: { args: [], json: true },
    });
    expect(result.stderr).toBe('');
  });

  it('turns anything thrown into an internal error with a hint, and prints its stack with PLATFORM_DEBUG=1', async () => {
    const plain = await main(['echo', '--fail', 'throw']);
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toBe(
      'Error [internal] Unexpected failure: boom\nHint: Run the command again with PLATFORM_DEBUG=1 to print the stack, and report it with the command you ran.\n',
    );
    const debug = await main(['echo', '--fail', 'throw'], { PLATFORM_DEBUG: '1' });
    expect(debug.stderr).toContain('TypeError: boom\n    at ');
  });

  it("prints a long-running command's result when it is ready, and ends when it stops", async () => {
    const stopped = await main(['echo', '--fail', 'never', '--json']);
    expect(stopped).toEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ ok: true, data: { args: [], json: true } })}\n`,
      stderr: '',
    });
    // A failure after the ready line goes to stderr: stdout keeps exactly one JSON value.
    const failed = await main(['echo', '--fail', 'later', '--json']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toBe(`${JSON.stringify({ ok: true, data: { args: [], json: true } })}\n`);
    expect(failed.stderr).toBe('Error [port_in_use] The server stopped.\nHint: Run it again.\n');
  });

  it('answers --help with JSON when asked for JSON', async () => {
    const result = await main(['echo', '--help', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).data.help).toContain('Usage: platform echo [options]');
  });
});
