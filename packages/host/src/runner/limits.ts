// Owns what may cross from an isolate in one piece; shared by the runner and the prelude (prelude/index.ts, logLine.ts).
// What may cross from an isolate to the runner in one piece, in UTF-16 code units (string
// length): the prelude holds partner code to it before anything is copied out, and the runner, which
// trusts nothing from an isolate, checks it again before a message goes on to the host. A larger
// piece would be copied into the runner and parsed on the host's one thread (a 20 MB log line cost
// every other call on the host about 0.1 s), so it never crosses: a capability request is refused
// with an error the handler can catch, a result fails its call, and a log line is cut (the prelude)
// or replaced by a line saying it was dropped.

/**
 * A capability request's arguments (a storage value, a fetch body), a call's result, the data of a
 * `crypto.subtle` digest or HMAC (base64): room for a whole webhook body (5 MiB by default) as JSON.
 */
export const CROSSING_CHARS = 8 * 1024 * 1024;

/**
 * One log line, as the JSON text of its entry. The host keeps far less of a line (its `logLineBytes`,
 * 8 KiB by default, reading at most four times that before redaction).
 */
export const LOG_LINE_CHARS = 64 * 1024;

/** Why a piece did not cross: the same words from the prelude and the runner. */
export function overLimit(what: string, length: number, limit: number): string {
  return `${what} is ${length} characters; at most ${limit} cross from the isolate`;
}

// `stringify`: JSON.stringify as the caller holds it (the prelude's, taken before partner code ran).
type Stringify = (value: unknown) => string;

/** The answer to a capability request whose arguments (and used keys) are `size` characters. */
export function requestRefusal(method: string, size: number, stringify: Stringify): string {
  const message = overLimit(`the ${method} request's arguments as JSON`, size, CROSSING_CHARS);
  return stringify({ ok: false, error: { name: 'Error', message } });
}

/** The line that stands for a log line of `length` characters that cannot cross. */
export function droppedLogLine(length: number, stringify: Stringify): string {
  return stringify({
    level: 'warn',
    message: `log line dropped: ${overLimit('its JSON', length, LOG_LINE_CHARS)}`,
  });
}
