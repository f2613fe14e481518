import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { HOST_OPTION, hostOption } from '../_arguments.js';
import type { McpOptions, McpReport } from './mcpGrants.js';

/** `platform mcp grants [--host <url>]` and `platform mcp revoke <id> [--host <url>]`. */
export const mcpCommand = defineCommand<McpOptions, McpReport>({
  name: 'mcp',
  summary: 'List the MCP clients (assistants) you allowed on a host; revoke one',
  description: [
    '`platform mcp grants` lists each MCP client you allowed with OAuth on the current host (or',
    '--host): its name, the account it may use, when you allowed it and when it last called.',
    '`platform mcp revoke <id>` ends one grant: its tokens stop working at once.',
  ],
  options: { host: HOST_OPTION },
  examples: ['platform mcp grants', 'platform mcp grants --json', 'platform mcp revoke 0f9c...'],
  exitCodes: [
    '1 the host cannot be reached',
    '2 no such subcommand, or no grant with that id',
    '4 not signed in, session expired or revoked, or MFA pending',
  ],
  parse(commandLine, context) {
    const [action, id, ...extra] = commandLine.positionals;
    const usage = () =>
      new CliError('usage', 'platform mcp takes `grants`, or `revoke <id>`.', {
        hint: 'Run `platform mcp grants` to list your grants, then `platform mcp revoke <id>` to end one.',
      });
    if (extra.length > 0 || commandLine.passthrough.length > 0) throw usage();
    if (action === 'grants' && id === undefined)
      return { env: context.env, action, ...hostOption(commandLine) };
    if (action === 'revoke' && id !== undefined)
      return { env: context.env, action, id, ...hostOption(commandLine) };
    throw usage();
  },
  async run(options) {
    const { mcpGrants } = await import('./mcpGrants.js');
    return { ok: true, data: await mcpGrants(options) };
  },
  render: renderGrants,
});

const when = (iso: string | null) => (iso === null ? 'never' : iso.replace('T', ' ').slice(0, 16));

function renderGrants(report: McpReport, style: Style): string {
  const lines: string[] = [];
  if (report.revoked !== undefined) lines.push(`${style.green('Revoked')} MCP grant ${report.revoked.id}.`);
  lines.push(`${style.bold('MCP clients you allowed')} on ${report.host} ${style.dim(`(${report.user})`)}`);
  if (report.grants.length === 0) lines.push('  none');
  for (const grant of report.grants) {
    lines.push(
      `  ${grant.id}  ${grant.clientName}  account ${grant.accountSlug}  allowed ${when(grant.createdAt)}  last used ${when(grant.lastUsedAt)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
