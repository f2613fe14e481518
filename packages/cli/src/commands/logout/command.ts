import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { HOST_OPTION, hostOption, noPositionals } from '../_arguments.js';
import type { LogoutOptions, LogoutReport } from './signOut.js';

/** `platform logout [--host <url>]`. */
export const logoutCommand = defineCommand<LogoutOptions, LogoutReport>({
  name: 'logout',
  summary: 'Sign out of a Platform host (ends the CLI session there)',
  description: [
    'Ends the CLI session on the host (with every token it minted) and removes it from the sessions',
    'file; the current host (or --host). A personal access token stored with `login --token` is',
    'only removed here: it stays valid until revoked on the host. A host that cannot be reached',
    'leaves the session stored, so you can try again.',
  ],
  options: {
    host: HOST_OPTION,
  },
  examples: ['platform logout', 'platform logout --host https://platform.example.com'],
  exitCodes: ['1 the host cannot be reached (nothing removed)', '4 not signed in to that host'],
  parse(commandLine, context) {
    noPositionals('logout', commandLine);
    return { env: context.env, ...hostOption(commandLine) };
  },
  async run(options) {
    const { signOut } = await import('./signOut.js');
    return { ok: true, data: await signOut(options) };
  },
  render: (report: LogoutReport, style: Style) => {
    const what =
      report.onHost === 'revoked'
        ? `the CLI session is ended on the host${report.revokedTokens.length > 0 ? `, with ${report.revokedTokens.length} token(s) it minted` : ''}`
        : report.onHost === 'already_ended'
          ? 'the host had already ended the session'
          : 'the personal access token is removed here only; revoke it on the host to end it';
    return `${style.green('Signed out')} of ${style.bold(report.host)} (${report.user}): ${what}.\n`;
  },
});
