import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_VERSION, COMMANDS, ERROR_EXIT_CODES, EXIT_CODES } from '@platform/cli';
import { describe, expect, it } from 'vitest';
import { envelopeOf, REPO_ROOT, run } from './_helpers.js';

const cwd = REPO_ROOT;

describe('the command layer', () => {
  it('has the exit codes of the spec table', () => {
    expect(EXIT_CODES).toMatchObject({
      validation: 3,
      auth_required: 4,
      forbidden: 5,
      precondition_failed: 9,
      gate_failed: 10,
    });
    expect(ERROR_EXIT_CODES).toMatchObject({
      validation: 3,
      auth_required: 4,
      forbidden: 5,
      precondition_failed: 9,
      gate_failed: 10,
    });
  });

  it('reports the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/cli/package.json'), 'utf8')) as {
      version: string;
    };
    expect(CLI_VERSION).toBe(version);
    const result = await run(['--version'], { cwd });
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('lists every command in --help', async () => {
    const result = await run(['--help'], { cwd });
    expect(result.code).toBe(0);
    for (const command of COMMANDS)
      expect(result.stdout).toMatch(
        new RegExp(`^  ${command.name} +${command.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
      );
  });

  it.each(COMMANDS.map((command) => [command.name]))(
    'prints help for `platform %s --help` and exits 0',
    async (name) => {
      const result = await run([name, '--help'], { cwd });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: platform ${name}`);
      expect(result.stdout).toContain('--json');
      expect(result.stdout).toContain('Exit codes:');
      expect(result.stderr).toBe('');
    },
  );

  it('refuses an unknown command with exit 2 and a hint', async () => {
    const result = await run(['publsh', '--json'], { cwd });
    expect(result.code).toBe(2);
    expect(envelopeOf(result).error).toEqual({
      code: 'usage',
      message: 'Unknown command "publsh".',
      hint: 'Run `platform --help` to see the commands (init, dev, validate, test, login, logout, sessions, mcp, use, sources, publish, status, upgrade).',
    });
  });

  it('refuses an unknown option with exit 2, in human mode on stderr', async () => {
    const result = await run(['validate', '--strict'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("Error [usage] Unknown option '--strict'");
    expect(result.stderr).toContain('Hint: Run `platform validate --help` to see its options.');
  });

  it('refuses arguments a command does not take', async () => {
    const result = await run(['upgrade', 'now', '--json'], { cwd });
    expect(result.code).toBe(2);
    expect(envelopeOf(result).error?.message).toBe('platform upgrade takes no arguments (got "now").');
  });
});
