import type { ReactNode } from 'react';
import { useId, useMemo, useState } from 'react';
import type { HarnessDefinition } from '../types.js';
import { nextFireTimes } from './_nextFireTimes.js';
import { useTriggerCall } from './_useTriggerCall.js';
import { TriggerResult } from './TriggerResult.js';

type Schedule = NonNullable<HarnessDefinition['schedules']>[number];

/** `YYYY-MM-DDTHH:mm` in UTC, what a `datetime-local` input holds. */
function toInputValue(date: Date): string {
  return date.toISOString().slice(0, 16);
}

/** One schedule: its cron, the next five fire times (UTC), a virtual time, Fire, the result. */
export function ScheduleTrigger({ schedule }: { readonly schedule: Schedule }): ReactNode {
  const id = useId();
  const [now] = useState(() => new Date());
  const next = useMemo(() => nextFireTimes(schedule.cron, now, 5), [schedule.cron, now]);
  const [at, setAt] = useState(() =>
    toInputValue(next.ok && next.times[0] !== undefined ? next.times[0] : now),
  );
  const {
    answer,
    busy,
    fire: post,
  } = useTriggerCall(`triggers/schedules/${encodeURIComponent(schedule.id)}`);
  // The input is read as UTC, like the cron expression.
  const fire = () => post(at === '' ? {} : { at: `${at.length === 16 ? `${at}:00` : at}Z` });

  return (
    <article className="harness-card" aria-labelledby={`${id}title`}>
      <h3 id={`${id}title`}>Schedule {schedule.id}</h3>
      {schedule.description === undefined ? null : <p className="harness-muted">{schedule.description}</p>}
      <p>
        Cron <code>{schedule.cron}</code> (UTC)
      </p>
      {next.ok ? (
        <ol aria-label={`Next fire times of ${schedule.id}`} className="harness-times">
          {next.times.map((time) => (
            <li key={time.toISOString()}>
              <time dateTime={time.toISOString()}>{time.toISOString()}</time>
            </li>
          ))}
        </ol>
      ) : (
        <p role="alert" className="harness-error">
          The cron expression could not be read: {next.message}
        </p>
      )}
      <label htmlFor={`${id}at`}>Virtual time of {schedule.id} (UTC)</label>
      <input
        id={`${id}at`}
        type="datetime-local"
        value={at}
        onChange={(event) => setAt(event.target.value)}
      />
      <div className="harness-actions">
        <button type="button" onClick={() => void fire()} disabled={busy}>
          Fire {schedule.id}
        </button>
      </div>
      {answer === null ? null : <TriggerResult label={`Result of ${schedule.id}`} answer={answer} />}
    </article>
  );
}
