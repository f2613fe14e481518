// Owns the CPU watchdog: each call's CPU budget and the leftover budget of work left behind.
import { dispose, drainIfDue } from './_isolatePool.js';
import { flushLogs, send } from './_outbox.js';
import { hasStarted } from './_startFlags.js';
import { calls, cpuTimeOf, ready, settings } from './_state.js';

// The CPU watchdog's tick while calls run (their budgets are tens of milliseconds), and while none
// does: then it only watches work handlers left behind, whose budget is 100 ms by default, and a
// runner at rest wakes 20 times a second instead of 200 (an idle runner used ~5% of a core).
export const WATCHDOG_INTERVAL_MS = 5;
export const IDLE_WATCHDOG_INTERVAL_MS = 50;
// `await` is caught here, from the isolate's own CPU clock. A call's CPU counts against its own
// budget; CPU an isolate uses while none of its calls runs (timers, promise chains or loops a
// handler left behind) counts against the small leftover budget, and past it the isolate goes.
export let watchdog: ReturnType<typeof setTimeout> | undefined;
export let watchdogMs = 0;

// The next tick: every 5 ms while any call runs, every 50 ms otherwise.
export function scheduleWatchdog() {
  watchdogMs = calls.size > 0 ? WATCHDOG_INTERVAL_MS : IDLE_WATCHDOG_INTERVAL_MS;
  watchdog = setTimeout(watch, watchdogMs).unref();
}

// A call has begun: a tick on the idle cadence is brought forward to the calls' cadence.
export function watchCalls() {
  if (watchdogMs === WATCHDOG_INTERVAL_MS) return;
  clearTimeout(watchdog);
  scheduleWatchdog();
}

export function watch() {
  // Calls first: a start mark seen here stops the idle clock before the leftover check below.
  for (const [callId, call] of calls) {
    flushLogs(callId, call);
    if (call.entry.disposed || !hasStarted(call)) continue;
    if (cpuTimeOf(call.entry) - call.cpuStart! > call.cpuLimitNs) dispose(call.versionId, call.entry, 'cpu');
  }
  const now = Date.now();
  for (const [versionId, entry] of ready) {
    drainIfDue(entry, now);
    if (entry.disposed || entry.idleCpuStart === undefined) continue;
    const used = cpuTimeOf(entry) - entry.idleCpuStart;
    if (used > settings.leftoverCpuNs + entry.idleAllowanceNs) {
      send({ type: 'leftover', versionId, cpuMs: Number(used / 1_000_000n) });
      dispose(versionId, entry, 'leftover');
    }
  }
  scheduleWatchdog();
}
