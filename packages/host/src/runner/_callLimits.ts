// Owns the runner's own limits on a call (what the prelude shares with it is limits.ts): the
// waiting requests an isolate may keep, and the error of a result too large to cross.
import { CROSSING_CHARS, overLimit } from './limits.js';

// Timers and capability calls an isolate may keep waiting at once; past it the isolate goes (each
// costs this process memory, and a runner serves other integrations too).
export const MAX_PENDING = 10_000;

// A result over CROSSING_CHARS (its length as the isolate says or as measured here): the call fails.
// Made only here: an error from an isolate is never one.
export class ResultTooLargeError extends Error {
  constructor(length: number) {
    super(overLimit("the handler's result as JSON", length, CROSSING_CHARS));
  }
}
