import { accountTools } from '../mcp/toolCatalog.js';
import { setToolPolicy, type ToolPolicy } from '../store/toolPolicies.js';
import { requireAccount } from './_lookups.js';
import { type DataOptions, withHost } from './_openHost.js';
import { CliError } from './CliError.js';

/**
 * Sets an account's policy for one tool its models see (`ask`, `allow`, `block`), by the effective
 * name `tools/list` shows; a name the account has no tool for is refused, naming the ones it has.
 */
export async function adminSetToolPolicy(
  options: DataOptions & { account: string; tool: string; policy: ToolPolicy },
) {
  return withHost(options, 'admin', async (host) => {
    const account = await requireAccount(host.db, options.account);
    const tools = await accountTools(host.db, account.id);
    const tool = tools.find((found) => found.name === options.tool);
    if (tool === undefined) {
      throw new CliError(
        'not_found',
        `Account "${account.slug}" has no tool "${options.tool}".`,
        tools.length === 0
          ? 'Activate an integration with tools for the account first.'
          : `Pass one of: ${tools.map((found) => found.name).join(', ')}.`,
      );
    }
    await setToolPolicy(host.db, {
      accountId: account.id,
      toolName: tool.name,
      policy: options.policy,
      userId: null,
    });
    return {
      account: account.slug,
      accountId: account.id,
      tool: tool.name,
      integration: tool.version.slug,
      effect: tool.effect,
      sensitivity: tool.sensitivity,
      policy: options.policy,
    };
  });
}
