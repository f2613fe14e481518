import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { HOST_OPTION, hostOption, noPositionals } from '../_arguments.js';
import type { SessionsOptions, SessionsReport } from './listSessions.js';

/** `platform sessions [--host <url>] [--revoke <id>]`. */
export const sessionsCommand = defineCommand<SessionsOptions, SessionsReport>({
  name: 'sessions',
  summary: 'List your sessions and tokens on a host, with their last use; revoke one',
  description: [
    'Lists your browser and CLI sessions and your personal access tokens on the current host (or',
    '--host): when each was made, expires and was last used, and from where. --revoke <id> revokes',
    'one first (a CLI session with every token it minted); the session this CLI uses ends with',
    '`platform logout`.',
  ],
  options: {
    host: HOST_OPTION,
    revoke: { type: 'string', value: '<id>', description: 'Revoke this session or token first' },
  },
  examples: ['platform sessions', 'platform sessions --revoke 01HX...'],
  exitCodes: [
    '1 the host cannot be reached',
    '2 no session or token with that id',
    '4 not signed in, session expired or revoked, or MFA pending',
  ],
  parse(commandLine, context) {
    noPositionals('sessions', commandLine);
    const { revoke } = commandLine.values;
    return {
      env: context.env,
      ...hostOption(commandLine),
      ...(typeof revoke === 'string' ? { revoke } : {}),
    };
  },
  async run(options) {
    const { listSessions } = await import('./listSessions.js');
    return { ok: true, data: await listSessions(options) };
  },
  render: renderSessions,
});

const when = (iso: string | null, none: string) => (iso === null ? none : iso.replace('T', ' ').slice(0, 16));

function renderSessions(report: SessionsReport, style: Style): string {
  const lines: string[] = [];
  if (report.revoked !== undefined) {
    lines.push(
      `${style.green('Revoked')} ${report.revoked.kind} ${report.revoked.id}${report.revoked.kind === 'session' && report.revoked.revokedTokens.length > 0 ? `, with ${report.revoked.revokedTokens.length} token(s) it minted` : ''}.`,
    );
  }
  lines.push(`${style.bold('Sessions')} on ${report.host} ${style.dim(`(${report.user})`)}`);
  for (const session of report.sessions) {
    lines.push(
      `${session.current ? style.green('*') : ' '} ${session.id}  ${session.kind.padEnd(7)}  last used ${when(session.lastUsedAt, 'never')}${session.lastUsedAddress === null ? '' : ` from ${session.lastUsedAddress}`}  expires ${when(session.expiresAt, 'never')}${session.name === null ? '' : `  ${style.dim(session.name)}`}`,
    );
  }
  lines.push(style.bold('Tokens'));
  if (report.tokens.length === 0) lines.push('  none');
  for (const token of report.tokens) {
    lines.push(
      `  ${token.id}  ${(token.name ?? '').padEnd(12)}  ${token.scopes.join(',').padEnd(12)}  last used ${when(token.lastUsedAt, 'never')}  expires ${when(token.expiresAt, 'never')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
