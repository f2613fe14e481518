import { useState } from 'react';
import { type ServerAnswer, useEntryPage } from './_shellContext.js';

/**
 * A trigger's Fire: POSTs a JSON body to one of the entry's trigger routes and keeps the answer
 * (a failure to reach the server becomes an answer with status 0), and whether a call is running.
 * @example const { answer, busy, fire } = useTriggerCall(`triggers/schedules/${id}`); void fire({ at });
 */
export function useTriggerCall(path: string): {
  readonly answer: ServerAnswer | null;
  readonly busy: boolean;
  fire(body: unknown): Promise<void>;
} {
  const { callServer } = useEntryPage();
  const [answer, setAnswer] = useState<ServerAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const fire = async (body: unknown) => {
    setBusy(true);
    try {
      setAnswer(
        await callServer(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    } catch (error) {
      setAnswer({
        status: 0,
        body: { ok: false, error: { message: error instanceof Error ? error.message : String(error) } },
      });
    } finally {
      setBusy(false);
    }
  };
  return { answer, busy, fire };
}
