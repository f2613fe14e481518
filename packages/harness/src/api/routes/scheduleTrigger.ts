import { runSchedule } from '@platform/sdk/runtime';
import { Hono } from 'hono';
import { errorResponse } from '../_errors.js';
import type { HarnessApi, HarnessEnv } from '../_harnessApi.js';
import { openCall } from '../openCall.js';
import { invalidVariant, readBody, readTime, runTrigger, withVariant } from './_trigger.js';

/**
 * `POST /api/integrations/<slug>/triggers/schedules/<id>` `{ at?, variant? }`: runs the schedule
 * once with `runSchedule` as a machine actor. `at` (ISO 8601, default now) is the virtual time the
 * run stands for; `ctx` has no clock in the spec, so it is only echoed in the answer.
 */
export function scheduleTriggerRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  app.post('/triggers/schedules/:scheduleId', async (c) => {
    const body = await readBody(c, ['at', 'variant']);
    if (!body.ok) return body.response;
    const call = withVariant(c.get('call'), body.value.variant);
    if (call === undefined) return invalidVariant(c, body.value.variant);
    const scheduleId = c.req.param('scheduleId');
    const definition = call.entry.definition;
    const schedule = definition?.schedules?.find((candidate) => candidate.id === scheduleId);
    if (definition === undefined || schedule === undefined) {
      const declared = definition?.schedules?.map((candidate) => candidate.id) ?? [];
      return errorResponse(
        c,
        404,
        'schedule_not_found',
        `"${call.entry.slug}" declares no schedule "${scheduleId}"; declared: ${declared.join(', ') || 'none'}.`,
      );
    }
    const at = readTime(body.value.at, api.now());
    if (at === undefined) {
      return errorResponse(
        c,
        400,
        'invalid_input',
        `"at" must be an ISO 8601 time such as "2025-01-31T03:00:00Z", not ${JSON.stringify(body.value.at)}.`,
      );
    }
    return runTrigger(
      c,
      call,
      openCall(api, call, 'machine'),
      (ctx) => runSchedule(definition, scheduleId, ctx),
      {
        scheduleId,
        cron: schedule.cron,
        at,
      },
    );
  });
  return app;
}
