import { type AccountTool, toolPolicyRequestSchema } from '@platform/wire';
import { Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { memberAccount } from '../routes/_account.js';
import { checkStateChange, requireCliUser } from '../routes/_auth.js';
import { RouteError } from '../routes/_errors.js';
import { parsedBody } from '../routes/_jsonBody.js';
import { setToolPolicy } from '../store/toolPolicies.js';
import { accountTools, type CatalogTool, needsConfirmation } from './toolCatalog.js';

const POLICY_USAGE = '{ "policy": "ask" | "allow" | "block" }';

/**
 * `/api/platform/accounts/:account/tools`: the tools an account's models see, with each policy
 * (any member may read); `PUT .../tools/:tool/policy` sets one (owners and admins).
 */
export function toolPolicyRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/accounts/:account/tools', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    const account = await memberAccount(services, user, c.req.param('account'));
    const tools = await accountTools(services.db, account.id);
    return c.json({ ok: true, data: { tools: tools.map(toolView) } });
  });

  app.put('/accounts/:account/tools/:tool/policy', async (c) => {
    checkStateChange(services, c, { requireJson: true });
    const user = await requireCliUser(services, c, 'publish');
    const account = await memberAccount(services, user, c.req.param('account'), {
      manage: 'set tool policies',
    });
    const { policy } = await parsedBody(services.limits, c, toolPolicyRequestSchema, POLICY_USAGE);
    const name = c.req.param('tool');
    const tools = await accountTools(services.db, account.id);
    const tool = tools.find((found) => found.name === name);
    if (tool === undefined) {
      throw new RouteError(404, 'tool_not_found', `Account "${account.slug}" has no tool "${name}".`, {
        hint: 'GET /api/platform/accounts/<account>/tools lists the tools by the names models call.',
      });
    }
    await setToolPolicy(services.db, { accountId: account.id, toolName: name, policy, userId: user.id });
    services.logger.info({ accountId: account.id, tool: name, policy, userId: user.id }, 'tool policy set');
    return c.json({ ok: true, data: toolView({ ...tool, policy }) });
  });
  return app;
}

function toolView(tool: CatalogTool): AccountTool {
  return {
    name: tool.name,
    integration: tool.version.slug,
    version: tool.version.number,
    description: tool.description,
    effect: tool.effect,
    sensitivity: tool.sensitivity,
    policy: tool.policy,
    asks: tool.policy !== 'block' && needsConfirmation(tool),
  };
}
