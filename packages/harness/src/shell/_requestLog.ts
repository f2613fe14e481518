import type { HarnessRequestRecord } from '../hooks/index.js';

/** One line of the request log: a record with a sequence number (the list's key). */
export interface RequestLogLine extends HarnessRequestRecord {
  readonly id: number;
}

/** The request log of one entry page: an external store the log panel subscribes to. */
export interface RequestLogStore {
  readonly add: (record: HarnessRequestRecord) => void;
  readonly clear: () => void;
  readonly subscribe: (onChange: () => void) => () => void;
  readonly lines: () => readonly RequestLogLine[];
}

/** Keeps the last `limit` records; a record may arrive during render (a fetch made there), so listeners run later. */
export function createRequestLog(limit = 200): RequestLogStore {
  let lines: readonly RequestLogLine[] = [];
  let next = 1;
  const listeners = new Set<() => void>();
  const notify = () =>
    queueMicrotask(() => {
      for (const listener of listeners) listener();
    });
  return {
    add: (record) => {
      lines = [...lines, { ...record, id: next++ }].slice(-limit);
      notify();
    },
    clear: () => {
      lines = [];
      notify();
    },
    subscribe: (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    lines: () => lines,
  };
}
