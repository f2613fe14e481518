import { toolConfirmationPrompt } from '@platform/sdk/runtime';
import { Hono } from 'hono';
import { HARNESS_HEADERS } from '../../hooks/harnessRequestHeaders.js';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';
import { harnessTools } from '../tools/harnessTools.js';
import { runHarnessTool } from '../tools/runHarnessTool.js';
import { invalidVariant, readBody, withVariant } from './_trigger.js';

/**
 * The Tools surface's routes. `GET tools`: the entry's tools as models are served them (the sdk's
 * descriptors, `needsConfirmation` under the default policy) and the declared ones they are not.
 * `POST tools/<effective name>` `{ arguments?, confirmed?, variant? }`: runs the tool as the host's
 * `tools/call` would, on the variant's mock state or the live context, and answers
 * `{ tool, mode, variant, result, logs, storage: { before, after } }` (a tool that fails is
 * `result: { ok: false, error }` in a 200); a tool that needs confirmation answers 409
 * `confirmation_required` with the host's prompt until the body says `confirmed: true`.
 */
export function toolRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  app.get('/tools', (c) => {
    const definition = c.get('call').entry.definition;
    const catalog = definition === undefined ? { tools: [], unserved: [] } : harnessTools(definition);
    return c.json({ ok: true, data: catalog });
  });

  app.post('/tools/:tool', async (c) => {
    const body = await readBody(c, ['arguments', 'confirmed', 'variant']);
    if (!body.ok) return body.response;
    const call = withVariant(c.get('call'), body.value.variant);
    if (call === undefined) return invalidVariant(c, body.value.variant);
    const name = c.req.param('tool');
    const definition = call.entry.definition;
    const tools = definition === undefined ? [] : harnessTools(definition).tools;
    const tool = tools.find((found) => found.name === name);
    if (tool === undefined) {
      return errorResponse(
        c,
        404,
        'tool_not_found',
        `"${call.entry.slug}" serves no tool "${name}"; tools are called by their effective name: ${tools.map((found) => found.name).join(', ') || 'none'}.`,
        { tools: tools.map((found) => found.name) },
      );
    }
    const args = body.value.arguments ?? {};
    if (body.value.confirmed !== undefined && typeof body.value.confirmed !== 'boolean')
      return errorResponse(c, 400, 'invalid_input', '"confirmed" must be true or false.');
    if (tool.needsConfirmation && body.value.confirmed !== true) {
      const prompt = toolConfirmationPrompt(tool, args);
      return errorResponse(c, 409, 'confirmation_required', prompt, {
        tool: tool.name,
        prompt,
        hint: 'Send the call again with "confirmed": true once the person said yes, as the host runs it only after they confirm.',
      });
    }
    const run = await runHarnessTool(api, call, tool, args, 'harness');
    if (run.hops.length > 0)
      c.header(HARNESS_HEADERS.hops, encodeURIComponent(JSON.stringify(run.hops.slice(-20))));
    return c.json({
      ok: true,
      data: {
        tool: tool.name,
        mode: call.mode,
        variant: call.variant,
        result: run.envelope,
        logs: run.logs,
        storage: run.storage,
      },
    });
  });
  return app;
}
