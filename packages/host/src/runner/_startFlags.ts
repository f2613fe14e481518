// Owns the start flags: shared memory in which the prelude marks that a call's code has started.
import type { Call, Entry } from './_state.js';
import { cpuTimeOf } from './_state.js';

export function markStarted(call: Call) {
  call.cpuStart = cpuTimeOf(call.entry);
  call.entry.idleCpuStart = undefined;
}

// Start flags: shared memory in which the prelude marks a call's slot when its code starts, so a
// call costs no `begin` message (each one woke this thread). The runner sees the mark at the next
// watchdog tick or when the call ends, whichever is first: a call's CPU clock starts at most one
// tick late, and nothing of its CPU is ever counted as leftover work. Slots are per isolate; a call
// that finds none free says it started through `begin`, as before. Like everything from an isolate
// a mark is untrusted, and it can only harm its own isolate: a mark set early starts that call's
// clock early, one never set leaves the call's CPU on the leftover budget (disposed past 100 ms).
export const START_SLOTS = 64;

export function takeStartSlot(entry: Entry) {
  const slot = entry.freeStartSlots.pop() ?? -1;
  if (slot >= 0) Atomics.store(entry.startFlags, slot, 0);
  return slot;
}

// Whether a call's code has started; the first time its mark is seen, its CPU clock starts. A slot
// is free again only once its call's apply has settled, after which no late mark can land in it.
export function hasStarted(call: Call) {
  if (call.cpuStart !== undefined) return true;
  if (call.abandoned || call.slot < 0 || Atomics.load(call.entry.startFlags, call.slot) === 0) return false;
  markStarted(call);
  return true;
}
