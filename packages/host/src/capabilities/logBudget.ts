/** How much partner code may write to the host log (see `HostLimits`; bytes are UTF-8 of the redacted line). */
export interface LogBudgetLimits {
  /** Per call: message and fields of every line together. */
  readonly bytesPerCall: number;
  readonly linesPerCall: number;
  /** Per integration (all its versions and accounts) per fixed minute, in this process. */
  readonly bytesPerMinute: number;
  readonly linesPerMinute: number;
}

/** Which budget a line went past, said once: per call, or per integration and minute. */
export interface LogBudgetNotice {
  readonly budget: 'call' | 'minute';
  /** The line the host logs (at warn) in place of what is dropped. */
  readonly message: string;
  /** What had been logged under that budget when it was exceeded. */
  readonly loggedLines: number;
  readonly loggedBytes: number;
}

/** `notice` only on the first line a budget refuses; every later line is dropped silently. */
export type LogAdmission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly notice?: LogBudgetNotice };

/** The budget of one call; its integration's minute window is shared with every other call of it. */
export interface CallLogBudget {
  /** Counts one line of `bytes` (its redacted, cut size) if both budgets still have room for it. */
  admit(bytes: number): LogAdmission;
  /** True once this call, or its integration for the current minute, drops every line: no need to prepare one. */
  closed(): boolean;
}

/** The host's log budgets: one per process (`HostServices.logBudgets`), holding the minute windows. */
export interface LogBudgets {
  forCall(integration: string): CallLogBudget;
}

interface Window {
  start: number;
  lines: number;
  bytes: number;
  exhausted: boolean;
}

const MINUTE_MS = 60_000;

/**
 * Per-call and per-integration-per-minute budgets for partner log lines. A call past its budget
 * (lines or bytes) gets one notice and no further line; an integration past its minute gets one
 * notice per window and no further line until the next minute (fixed windows on `now`, this
 * process only: instances do not share them).
 * @example const budgets = createLogBudgets(limits); const call = budgets.forCall('acme'); call.admit(120);
 */
export function createLogBudgets(limits: LogBudgetLimits, now: () => number = Date.now): LogBudgets {
  const windows = new Map<string, Window>();

  function windowOf(integration: string): Window {
    const start = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
    let window = windows.get(integration);
    if (window === undefined || window.start !== start) {
      // A new minute: drop every stale window, so the map holds only integrations logging now.
      if (window !== undefined)
        for (const [name, old] of windows) if (old.start !== start) windows.delete(name);
      window = { start, lines: 0, bytes: 0, exhausted: false };
      windows.set(integration, window);
    }
    return window;
  }

  return {
    forCall(integration) {
      let lines = 0;
      let bytes = 0;
      let exhausted = false;
      return {
        closed: () => exhausted || windowOf(integration).exhausted,
        admit(size) {
          if (exhausted) return { admitted: false };
          const window = windowOf(integration);
          if (window.exhausted) return { admitted: false };
          if (window.lines + 1 > limits.linesPerMinute || window.bytes + size > limits.bytesPerMinute) {
            window.exhausted = true;
            return {
              admitted: false,
              notice: {
                budget: 'minute',
                message: `partner log truncated: this integration went past its log budget for this minute (${limits.linesPerMinute} lines, ${limits.bytesPerMinute} bytes); further lines dropped until the next minute`,
                loggedLines: window.lines,
                loggedBytes: window.bytes,
              },
            };
          }
          if (lines + 1 > limits.linesPerCall || bytes + size > limits.bytesPerCall) {
            exhausted = true;
            return {
              admitted: false,
              notice: {
                budget: 'call',
                message: `partner log truncated: this call went past its log budget (${limits.linesPerCall} lines, ${limits.bytesPerCall} bytes); further lines dropped`,
                loggedLines: lines,
                loggedBytes: bytes,
              },
            };
          }
          lines += 1;
          bytes += size;
          window.lines += 1;
          window.bytes += size;
          return { admitted: true };
        },
      };
    },
  };
}
