import { checkCron } from '@platform/integration-schema';
import { Cron } from 'croner';

/**
 * The next `count` times a cron expression fires after `from`, in UTC, as the host's scheduler
 * computes them (the spec's grammar first, then croner), or the reason it cannot be read.
 * @example nextFireTimes('0 3 * * *', new Date('2026-01-01T00:00:00Z'), 1) // { ok: true, times: [2026-01-01T03:00:00.000Z] }
 */
export function nextFireTimes(
  cron: string,
  from: Date,
  count = 5,
): { ok: true; times: Date[] } | { ok: false; message: string } {
  const checked = checkCron(cron);
  if (!checked.ok) return { ok: false, message: checked.message };
  try {
    const job = new Cron(cron, { timezone: 'UTC', paused: true });
    return { ok: true, times: job.nextRuns(count, from) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
