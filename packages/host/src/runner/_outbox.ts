// Owns what the runner sends the host: the outbox flushed once a turn, capability requests waiting
// for their answers, and a call's log lines riding on its next message.
import type { Call, Entry } from './_state.js';
import { calls } from './_state.js';

/** capId -> resolve */
export const capReplies = new Map<number, (reply: string) => void>();
let nextCap = 1;

// Log lines one call may send to the host, which budgets them far lower (PLATFORM_LOG_*): this only
// keeps a flood off the IPC channel.
export const MAX_LOG_LINES = 10_000;
// ... and their characters (each line at most LOG_LINE_CHARS): the host parses every line it gets
// before its budget drops it.
export const MAX_LOG_CHARS = 1024 * 1024;
// A call's log lines wait for its next message to the host (a capability request or its result),
// the next watchdog tick, or this many lines or bytes: one message for them, not one per line.
export const LOG_BATCH_LINES = 100;
export const LOG_BATCH_BYTES = 64 * 1024;

// Messages leave together at the end of the event loop's turn: the results and requests of the
// calls one batch from the host ran cost one write and one wake-up of the host. (Not on
// process.nextTick: flushed that way, two bridged calls took 40% longer, as if a capability request
// sent from an isolated-vm callback waited for the next unrelated event to run the tick queue.)
let outbox: object[] = [];
function flushOutbox(): void {
  const messages = outbox;
  outbox = [];
  if (process.connected) process.send!(messages.length === 1 ? messages[0] : { type: 'batch', messages });
}
export const send = (message: object): void => {
  if (outbox.length === 0) setImmediate(flushOutbox);
  outbox.push(message);
};

export function hostCall(
  entry: Entry,
  callId: string,
  method: string,
  args: string,
  used: unknown,
): Promise<string> {
  const capId = nextCap++;
  const logs = takeLogs(calls.get(callId));
  return new Promise((resolve) => {
    capReplies.set(capId, resolve);
    send({
      type: 'cap',
      callId,
      versionId: entry.versionId,
      capId,
      method,
      args: String(args),
      logs,
      ...(used === undefined ? {} : { used: String(used) }),
    });
  });
}

// The call's waiting log lines, for the message that goes next (undefined: none, and no field).
export function takeLogs(call: Call | undefined): string[] | undefined {
  const logs = call?.logs;
  if (logs !== undefined) {
    call!.logs = undefined;
    call!.logBytes = 0;
  }
  return logs;
}

export function flushLogs(callId: string, call: Call | undefined): void {
  const entries = takeLogs(call);
  if (entries !== undefined) send({ type: 'log', callId, entries });
}
