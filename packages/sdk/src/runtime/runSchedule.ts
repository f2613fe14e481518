import type { AnyIntegrationDefinition, IntegrationContext } from '../integration/types.js';
import { errorMessage } from './_errors.js';
import type { RunResult } from './envelope.js';

export type ScheduleErrorCode = 'schedule_not_found' | 'handler_error';

/**
 * Runs a schedule's handler once. `ctx` should be a machine actor's. Never throws.
 * @example const result = await runSchedule(definition, 'nightly-sync', ctx);
 */
export async function runSchedule(
  definition: AnyIntegrationDefinition,
  scheduleId: string,
  ctx: IntegrationContext,
): Promise<RunResult<ScheduleErrorCode>> {
  const schedule = definition.schedules?.find((candidate) => candidate.id === scheduleId);
  if (schedule === undefined) {
    return { ok: false, error: { code: 'schedule_not_found', message: `Unknown schedule "${scheduleId}".` } };
  }
  try {
    await schedule.handler(ctx);
    return { ok: true };
  } catch (thrown) {
    const message = errorMessage(thrown);
    ctx.logger.error(`schedule "${scheduleId}" failed: ${message}`);
    return { ok: false, error: { code: 'handler_error', message } };
  }
}
