import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { processIO } from '../../host/hostIO.js';
import { HOST_OPTION, hostOption, noPositionals } from '../_arguments.js';
import type { LoginOptions, LoginReport } from './loginToHost.js';

/** `platform login [--host <url>] [--token <pat> | --token-stdin] [--mfa-code <code>]`. */
export const loginCommand = defineCommand<LoginOptions, LoginReport>({
  name: 'login',
  summary: 'Sign in to a Platform host (device code, or --token for CI)',
  description: [
    "Prints a URL and a code: open the URL, sign in on the host's page and approve the code; the CLI",
    'waits for the approval. An account with an authenticator app then asks for its code (on a',
    'terminal, or pass --mfa-code). For CI, --token <pat> or --token-stdin stores a personal access',
    'token after checking it. Sessions are kept per host in <config>/platform/hosts.json (mode 0600;',
    '<config> is $PLATFORM_CONFIG_DIR, else $XDG_CONFIG_HOME, else ~/.config); the host signed in',
    'to last is the current one, used by the other commands without --host.',
  ],
  options: {
    host: HOST_OPTION,
    token: { type: 'string', value: '<pat>', description: 'Store this personal access token (CI)' },
    'token-stdin': { type: 'boolean', description: 'Read the personal access token from stdin' },
    'mfa-code': {
      type: 'string',
      value: '<code>',
      description: 'The authenticator code, when the account has two-factor authentication',
    },
  },
  examples: [
    'platform login --host https://platform.example.com',
    'echo "$PLATFORM_TOKEN" | platform login --host https://platform.example.com --token-stdin',
    'platform login --host https://platform.example.com --mfa-code 123456',
  ],
  exitCodes: [
    '1 the host cannot be reached, or the sign-in was denied or expired',
    '4 the token was refused, or the session waits for an authenticator code',
  ],
  parse(commandLine, context) {
    noPositionals('login', commandLine);
    const { token, 'token-stdin': tokenStdin, 'mfa-code': mfaCode } = commandLine.values;
    if (typeof token === 'string' && tokenStdin === true) {
      throw new CliError('usage', 'Pass either --token or --token-stdin, not both.', {
        hint: 'Run `platform login --host <url> --token-stdin` and pipe the token in.',
      });
    }
    return {
      env: context.env,
      io: processIO(),
      progress: context.progress,
      ...hostOption(commandLine),
      ...(typeof token === 'string' ? { token } : {}),
      tokenStdin: tokenStdin === true,
      ...(typeof mfaCode === 'string' ? { mfaCode: mfaCode.trim() } : {}),
    };
  },
  async run(options) {
    const { loginToHost } = await import('./loginToHost.js');
    return { ok: true, data: await loginToHost(options) };
  },
  render: renderLogin,
});

function renderLogin(report: LoginReport, style: Style): string {
  const how = report.kind === 'token' ? 'a personal access token' : 'a CLI session';
  const lines = [
    `${style.green('Signed in')} to ${style.bold(report.host)} as ${style.bold(report.user.email)} (${how}${report.mfaVerified ? ', authenticator code verified' : ''}).`,
    style.dim(`Session stored in ${report.sessionsFile}; ${report.host} is now the current host.`),
  ];
  lines.push(
    report.source === null
      ? `Next: ${style.cyan('platform sources')} to see your seats, ${style.cyan('platform use <slug>')} to pick one.`
      : `Selected source: ${style.bold(report.source)}.`,
  );
  return `${lines.join('\n')}\n`;
}
